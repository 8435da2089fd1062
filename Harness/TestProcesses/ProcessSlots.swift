import Foundation
import Testing

/// How many tests that start processes (the `handoff` binaries, probes, throwaway servers,
/// network namespaces) run at once in this test process: a counting semaphore shared by every
/// test target (`swift test` runs them all in one process). Swift Testing starts every test
/// at once; on a two-core machine dozens of transfers at once starve each other until their
/// codes expire. A test waits for a slot without holding a thread.
///
/// The number is `HANDOFF_TEST_PROCESS_SLOTS` when set (at least 1), else 3.
public final class ProcessSlots: @unchecked Sendable {
    // Safety of @unchecked Sendable: `free` and `waiting` are only touched under `lock`.
    /// The one semaphore of this test process.
    public static let shared = ProcessSlots(count: configuredCount)

    /// How many slots there are.
    public let count: Int
    private let lock = NSLock()
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Whether the current task already holds a slot (a suite's trait and its test's, or a
    /// helper that takes one inside a test that holds one): it then takes no second one.
    @TaskLocal static var isHeld = false

    init(count: Int) {
        self.count = count
        free = count
    }

    static var configuredCount: Int {
        ProcessInfo.processInfo.environment["HANDOFF_TEST_PROCESS_SLOTS"].flatMap(Int.init).map { max($0, 1) } ?? 3
    }

    /// Runs `body` holding a slot, waiting (first come, first served) for one to be free.
    public func withSlot<Value>(_ body: () async throws -> Value) async rethrows -> Value {
        if Self.isHeld { return try await body() }
        await acquire()
        defer { release() }
        return try await Self.$isHeld.withValue(true) { try await body() }
    }

    /// How many slots are taken now.
    public var taken: Int { lock.withLock { count - free } }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = lock.withLock { () -> Bool in
                if free > 0, waiting.isEmpty {
                    free -= 1
                    return true
                }
                waiting.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            if waiting.isEmpty {
                free += 1
                return nil
            }
            return waiting.removeFirst()  // the slot passes straight to the longest waiter
        }
        next?.resume()
    }
}

/// A suite or test that starts processes: each of its tests runs holding a slot of
/// ``ProcessSlots/shared``.
public struct StartsProcesses: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // A suite's own scope holds nothing: its tests take their slots one by one.
        guard testCase != nil else { return try await function() }
        try await ProcessSlots.shared.withSlot { try await function() }
    }
}

extension Trait where Self == StartsProcesses {
    /// Each test holds a slot of ``ProcessSlots/shared`` while it runs.
    public static var startsProcesses: Self { StartsProcesses() }
}
