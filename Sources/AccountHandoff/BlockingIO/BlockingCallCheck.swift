import Foundation

/// Test hook: collects, instead of stopping the program, the blocking calls the check of
/// ``BlockingCall`` catches on a task's thread, for the task (and its child tasks) that runs
/// ``collect(_:)``.
package final class BlockingCallCheck: @unchecked Sendable {
    // Safety of @unchecked Sendable: `names` is only touched under `lock`.
    @TaskLocal static var witness: BlockingCallCheck?

    private let lock = NSLock()
    private var names: [String] = []

    private init() {}

    /// Runs `body` and returns the blocking calls it made on a thread that runs a task, in order.
    package static func collect(_ body: () async throws -> Void) async rethrows -> [String] {
        let check = BlockingCallCheck()
        try await $witness.withValue(check) { try await body() }
        return check.lock.withLock { check.names }
    }

    func record(_ name: StaticString) {
        lock.withLock { names.append("\(name)") }
    }
}
