import Foundation

/// A flag that is set once and then stays set, safe to share between threads: what one side
/// noticed (a cancellation, a code that was never served), read or awaited by another.
package final class OnceFlag: @unchecked Sendable {
    // Safety of @unchecked Sendable: `isSetNow`, `handlers` and `nextHandler` are only touched
    // under `lock`.
    private let lock = NSLock()
    private var isSetNow = false
    private var handlers: [Int: @Sendable () -> Void] = [:]
    private var nextHandler = 0

    /// A flag that is not set.
    package init() {}

    /// Whether the flag is set.
    package var isSet: Bool { lock.withLock { isSetNow } }

    /// Sets the flag and runs the handlers waiting for it, once.
    ///
    /// - Returns: whether this call set it (`false` when it was set already).
    @discardableResult
    package func set() -> Bool {
        let waiting: [@Sendable () -> Void]? = lock.withLock {
            guard !isSetNow else { return nil }
            isSetNow = true
            defer { handlers.removeAll() }
            return handlers.sorted { $0.key < $1.key }.map(\.value)
        }
        guard let waiting else { return false }
        waiting.forEach { $0() }
        return true
    }

    /// Runs `handler` once when the flag is set (at once, on this thread, when it is set
    /// already), unless it is removed first with ``removeHandler(_:)``.
    ///
    /// - Returns: the handler's key for ``removeHandler(_:)``.
    @discardableResult
    package func whenSet(_ handler: @escaping @Sendable () -> Void) -> Int {
        let key: Int? = lock.withLock {
            guard !isSetNow else { return nil }
            nextHandler += 1
            handlers[nextHandler] = handler
            return nextHandler
        }
        guard let key else {
            handler()
            return 0
        }
        return key
    }

    /// Forgets a handler that has not run; after this returns it never runs.
    package func removeHandler(_ key: Int) {
        lock.withLock { _ = handlers.removeValue(forKey: key) }
    }
}
