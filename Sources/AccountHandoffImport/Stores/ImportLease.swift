import Foundation

/// A held claim on the store: while an import holds one, recovery elsewhere leaves staged
/// credentials alone; while recovery holds one, no import runs. Released by ``release()`` or
/// when the lease is deallocated.
public final class ImportLease: @unchecked Sendable {
    // Safety of @unchecked Sendable: `onRelease` is read and cleared only under `lock`.
    private let lock = NSLock()
    private var onRelease: (@Sendable () -> Void)?

    /// A lease that runs `onRelease` exactly once, when released.
    public init(onRelease: @escaping @Sendable () -> Void) {
        self.onRelease = onRelease
    }

    /// Gives the claim back. Idempotent.
    public func release() {
        lock.lock()
        let action = onRelease
        onRelease = nil
        lock.unlock()
        action?()
    }

    /// Whether ``release()`` has run.
    public var isReleased: Bool {
        lock.lock()
        defer { lock.unlock() }
        return onRelease == nil
    }

    deinit { release() }
}
