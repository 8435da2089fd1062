import AccountHandoff
import Foundation

/// The driver world's clock: it moves only when the script says, and wakes the sessions'
/// timers whose deadline it passed. A timer that asks again and again to sleep until a time
/// already past (a session that feeds `tick` in a loop without its deadline moving) is stopped
/// and reported, instead of hanging the input.
///
/// Used on the fuzzer's thread only (``SerialJobs``).
final class FuzzClock: HandoffClock, @unchecked Sendable {
    // Safety of @unchecked Sendable: every job of a driver input runs on the fuzzer's thread.
    private var time: Date
    private var sleepers: [(deadline: Date, continuation: CheckedContinuation<Void, any Error>)] = []
    /// Sleeps that returned at once since the clock last moved.
    private var sleepsAlreadyDue = 0
    /// The deadline a timer spun on, once one did.
    private(set) var spunAt: Date?

    init(start: Date) { time = start }

    func now() -> Date { time }

    func sleep(until deadline: Date) async throws {
        if time >= deadline {
            sleepsAlreadyDue += 1
            if sleepsAlreadyDue > 10_000 {
                spunAt = deadline
                throw CancellationError()
            }
            return
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            sleepers.append((deadline, continuation))
        }
    }

    /// Sets the clock (it may go back: sessions must not be fooled) and wakes due sleepers.
    func set(_ date: Date) {
        time = date
        sleepsAlreadyDue = 0
        let due = sleepers.filter { $0.deadline <= date }
        sleepers.removeAll { $0.deadline <= date }
        due.forEach { $0.continuation.resume() }
    }

    /// Moves the clock forward.
    func advance(by seconds: TimeInterval) { set(time.addingTimeInterval(seconds)) }

    /// Cancels every sleeper (their tasks end); for the end of an input.
    func releaseSleepers() {
        let all = sleepers
        sleepers.removeAll()
        all.forEach { $0.continuation.resume(throwing: CancellationError()) }
    }
}
