import Foundation

/// One dedicated thread for the blocking work on Thunderbird profiles (files, locks, NSS), so
/// that none of it runs on a Swift concurrency thread. Jobs run one after another, in order.
///
/// This is the only place the module hands work to a thread: when the package gets one shared
/// I/O thread, this type is what to replace.
final class ProfileWorkThread: @unchecked Sendable {
    // Safety of @unchecked Sendable: `jobs` is only touched under `condition`.
    /// The process's one thread for profile work.
    static let shared = ProfileWorkThread(name: "handoff.thunderbird-profile")

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []

    private init(name: String) {
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = name
        thread.start()
    }

    /// Runs `body` on the thread and returns its result; the calling task waits without
    /// blocking its thread. A job is not interrupted by cancellation: blocking work finishes.
    func run<Value: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> Value) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            enqueue {
                do throws(Failure) { continuation.resume(returning: .success(try body())) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Runs `body` on the thread without waiting for it (releasing a lock, say).
    func post(_ body: @escaping @Sendable () -> Void) {
        enqueue(body)
    }

    private func enqueue(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
