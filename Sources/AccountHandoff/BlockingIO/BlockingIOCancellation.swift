/// The cancellation of one piece of work on a ``BlockingIOPool``: set when the task that
/// waits for the work is cancelled, or when the pool shuts down. Work that can stop early
/// (a wait for a lock, a network transfer) checks it; work that must finish ignores it.
public final class BlockingIOCancellation: Sendable {
    private let flag = OnceFlag()

    package init() {}

    /// Whether the work was asked to stop.
    public var isCancelled: Bool { flag.isSet }

    /// Asks the work to stop.
    package func cancel() { flag.set() }

    /// Runs `handler` once when the work is asked to stop (at once when it was already);
    /// for waits that must be woken. Remove it with ``forgetHandler(_:)`` once the wait ended.
    package func whenCancelled(_ handler: @escaping @Sendable () -> Void) -> Int { flag.whenSet(handler) }

    /// Forgets a handler of ``whenCancelled(_:)``; after this returns it never runs.
    package func forgetHandler(_ key: Int) { flag.removeHandler(key) }

    /// The cancellation of the pool work running on this thread, or `nil` on any other
    /// thread: for blocking code deep inside a call that can give up early.
    package static var current: BlockingIOCancellation? { IOThreadMark.currentCancellation }
}
