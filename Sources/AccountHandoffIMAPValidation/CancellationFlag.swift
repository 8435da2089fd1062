import Foundation

/// Set when the validating task is cancelled; read by libcurl's progress callback.
final class CancellationFlag: @unchecked Sendable {
    // Safety of @unchecked Sendable: `cancelled` is only touched under `lock`.
    private let lock = NSLock()
    private var cancelled = false

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
}
