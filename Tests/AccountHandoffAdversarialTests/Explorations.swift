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

    /// Every schedule of the full alphabet up to ``fullDepth``, computed once per process.
    static func full() async throws(InvariantViolation) -> Run { try await onOwnThread { fullRun }.get() }
    /// Every schedule of the second-device race up to ``raceDepth``, computed once per process.
    static func race() async throws(InvariantViolation) -> Run { try await onOwnThread { raceRun }.get() }

    private static let fullRun = explore(ScheduleExplorer(depth: fullDepth))
    private static let raceRun = explore(ScheduleExplorer(depth: raceDepth, alphabet: .secondDeviceRace))

    /// Runs `work` on a thread of its own. An exploration is seconds of CPU, and a test that
    /// waits for another's to finish blocks too; on one of the few threads that all tests'
    /// async code shares (two on a 2-core machine) that would starve the suites that drive real
    /// sockets against wall-clock deadlines.
    private static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    private static func explore(_ explorer: ScheduleExplorer) -> Result<Run, InvariantViolation> {
        let started = Date()
        return Result { () throws(InvariantViolation) -> Run in
            let report = try explorer.run()
            return Run(report: report, seconds: Date().timeIntervalSince(started))
        }
    }
}
