import Foundation

/// Where the session drivers read the time and wait for deadlines. Injected so tests (and apps
/// with their own notion of time) can drive expiry without waiting.
public protocol HandoffClock: Sendable {
    /// The current time.
    func now() -> Date

    /// Suspends until `deadline` has passed.
    ///
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    func sleep(until deadline: Date) async throws
}

/// The system's wall clock, as the protocol's expiry is in Unix time.
public struct SystemHandoffClock: HandoffClock {
    /// The system clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }

    /// Sleeps until `deadline`; a deadline in the past returns at once.
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1_000_000_000) + 1_000_000)
    }
}
