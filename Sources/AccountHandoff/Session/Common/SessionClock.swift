import Foundation

/// A session's view of time (Spec 6.0, step 1): only finite times are accepted, and time
/// never runs backwards, so a clock that jumps back cannot extend a session.
struct SessionClock {
    /// The largest time, in Unix seconds, the session has been given.
    private(set) var time: Double

    /// Starts at `start`.
    ///
    /// - Throws: ``HandoffError/invalidClock`` for a time that is not a finite number.
    init(start: Date) throws(HandoffError) {
        let seconds = start.timeIntervalSince1970
        guard seconds.isFinite else { throw .invalidClock }
        time = seconds
    }

    /// Moves to `now` unless that is earlier than a time already seen.
    ///
    /// - Throws: ``HandoffError/invalidClock`` for a time that is not a finite number; the
    ///   clock is unchanged then.
    mutating func advance(to now: Date) throws(HandoffError) {
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite else { throw .invalidClock }
        time = max(time, seconds)
    }
}
