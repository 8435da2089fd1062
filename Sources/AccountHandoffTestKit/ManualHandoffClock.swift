import AccountHandoff
import Foundation

/// A clock that moves only when told to, for expiry and renewal tests of the session drivers:
/// sleepers wake when ``advance(by:)`` or ``set(_:)`` passes their deadline. Give the same
/// clock to both sessions of a test.
///
/// ```swift
/// let clock = ManualHandoffClock(start: Date(timeIntervalSince1970: 1_800_000_000))
/// clock.advance(by: 181)  // the first code expired unscanned; the sender shows a new one
/// ```
public final class ManualHandoffClock: HandoffClock, @unchecked Sendable {
    // Safety of @unchecked Sendable: `time` and `sleepers` are touched only under `lock`.
    private let lock = NSLock()
    private var time: Date
    private var sleepers: [(deadline: Date, continuation: CheckedContinuation<Void, any Error>)] = []

    /// A clock that starts at `start`.
    public init(start: Date) { time = start }

    /// The clock's time.
    public func now() -> Date { lock.withLock { time } }

    /// Returns once the clock was moved to `deadline` or past it.
    public func sleep(until deadline: Date) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let ready: Bool = lock.withLock {
                if time >= deadline { return true }
                sleepers.append((deadline, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline passed.
    public func advance(by seconds: TimeInterval) { set(now().addingTimeInterval(seconds)) }

    /// Sets the clock (it may go back: sessions must not be fooled) and wakes due sleepers.
    public func set(_ date: Date) {
        let due: [CheckedContinuation<Void, any Error>] = lock.withLock {
            time = date
            let ready = sleepers.filter { $0.deadline <= date }
            sleepers.removeAll { $0.deadline <= date }
            return ready.map(\.continuation)
        }
        due.forEach { $0.resume() }
    }

    /// How many tasks are waiting for a deadline.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }
}
