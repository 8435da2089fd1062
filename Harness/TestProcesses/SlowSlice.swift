import Foundation
import Testing

/// The slow slice: tests that `swift test` leaves out so that it stays near a minute on a
/// two-core machine (long multi-process runs, repeated rounds, floods, the bench, real
/// Thunderbird readers, most network-namespace hosts), run by `Scripts/slow-tests.sh` with
/// `HANDOFF_SLOW_TESTS` set. A test joins it with `@Test(.slowSlice)`, the one marker the
/// script looks for; a suite never does (the script could not find its tests).
public enum SlowSlice {
    /// The environment variable that enables the slice.
    public static let variable = "HANDOFF_SLOW_TESTS"

    /// Whether this run includes the slow slice.
    public static var isEnabled: Bool { ProcessInfo.processInfo.environment[variable] != nil }
}

extension Trait where Self == ConditionTrait {
    /// The test runs only in the slow slice (`Scripts/slow-tests.sh`).
    public static var slowSlice: Self {
        .enabled(if: SlowSlice.isEnabled, "in the slow slice: Scripts/slow-tests.sh runs it")
    }
}
