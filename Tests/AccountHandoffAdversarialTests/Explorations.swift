import AccountHandoffSimulation
import Foundation

/// The schedule explorations the adversarial suites share, each run once per test process.
enum Explorations {
    /// One finished exploration and how long it took.
    struct Run: Sendable {
        let report: ScheduleExplorer.Report
        let seconds: Double
    }

    /// Depth of the full exploration: at 14 no schedule of its alphabet is cut off any more
    /// (the honest transfer needs 10 effective steps). `HANDOFF_SCHEDULE_DEPTH` overrides it.
    static let fullDepth = ProcessInfo.processInfo.environment["HANDOFF_SCHEDULE_DEPTH"].flatMap(Int.init) ?? 14
    /// Depth of the second-device race: 12 reaches a second hello after the credential left and
    /// a completed transfer (10 honest steps, the scan and the second hello); deeper costs more
    /// than the default suite's budget. `HANDOFF_RACE_DEPTH` overrides it.
    static let raceDepth = ProcessInfo.processInfo.environment["HANDOFF_RACE_DEPTH"].flatMap(Int.init) ?? 12

    /// Every schedule of the full alphabet up to ``fullDepth``.
    static let full = explore(ScheduleExplorer(depth: fullDepth))
    /// Every schedule of the second-device race up to ``raceDepth``.
    static let race = explore(ScheduleExplorer(depth: raceDepth, alphabet: .secondDeviceRace))

    private static func explore(_ explorer: ScheduleExplorer) -> Result<Run, InvariantViolation> {
        let started = Date()
        return Result { () throws(InvariantViolation) -> Run in
            let report = try explorer.run()
            return Run(report: report, seconds: Date().timeIntervalSince(started))
        }
    }
}
