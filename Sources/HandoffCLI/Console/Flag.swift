import Foundation

/// A thread-safe flag that is set once and then stays set: what a callback on another task
/// noticed, read after it finished.
final class Flag: @unchecked Sendable {
    // Safety of @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
