import AccountHandoff
import AccountHandoffSimulation
import Foundation
import Testing

/// Exhaustive schedule exploration on the real state machines (see ``ScheduleExplorer``):
/// every interleaving of deliveries (any order), replays, drops, both people's
/// confirm/reject/cancel, the apps' credential and import results, clock jumps past each
/// expiry, ticks and transport loss, up to the stated depth, with every property asserted
/// after every step and at the end of every schedule.
@Suite struct ScheduleExplorationTests {
    /// The depth bound. The honest transfer needs 9 effective steps; at 16 no schedule is cut
    /// off any more (every one ends before the bound), so the exploration is complete for this
    /// alphabet. `HANDOFF_SCHEDULE_DEPTH` overrides it.
    static let depth = ProcessInfo.processInfo.environment["HANDOFF_SCHEDULE_DEPTH"].flatMap(Int.init) ?? 16

    @Test func everyScheduleUpToTheDepthKeepsEveryProperty() throws {
        let started = Date()
        let report = try ScheduleExplorer(depth: Self.depth).run()
        let seconds = Date().timeIntervalSince(started)
        print("schedule exploration: depth \(report.depth), \(report.schedules) schedules, \(report.distinctStates) states, "
              + "\(report.expandedNodes) nodes, \(report.checkedSteps) checked steps, \(report.replayedSteps) replayed steps, \(report.noOpSteps) no-op steps, "
              + "\(report.finishedLeaves) finished leaves (\(report.importingLeaves) importing, \(report.truncatedLeaves) cut by the bound), \(String(format: "%.1f", seconds)) s")
        #expect(report.truncatedLeaves == 0, "schedules cut by the depth bound: the exploration is not complete")
        // 128,462 schedules at depth 16 once aborts may skip ahead of a crossed frame (Spec 5.2).
        #expect(report.schedules >= 128_000)
        #expect(report.finishedLeaves >= 300)
        #expect(report.importingLeaves > 0)
        let senderEnds = Set(report.outcomePairs.map { String($0.split(separator: "|")[0]).trimmingCharacters(in: .whitespaces) })
        let receiverEnds = Set(report.outcomePairs.map { String($0.split(separator: "|")[1]).trimmingCharacters(in: .whitespaces) })
        for outcome: TransferOutcome in [.completed(.imported), .completed(.validationFailed), .completed(.declined),
                                         .cancelled(by: .local), .cancelled(by: .peer), .rejected(by: .local), .rejected(by: .peer),
                                         .expired, .failed(.transportLost)] {
            #expect(senderEnds.contains("\(outcome)"), "sender never ended \(outcome)")
            #expect(receiverEnds.contains("\(outcome)"), "receiver never ended \(outcome)")
        }
    }

    /// At depth 1 the effective first steps are exactly: deliver or drop the hello, the
    /// receiving person's reject and cancel, the sending person's cancel, two clock jumps and
    /// two transport losses. The other nine candidates (confirm without a code, the apps'
    /// events, ticks before expiry) are refused or change nothing.
    @Test func depthOneCoversEveryEffectiveFirstStep() throws {
        let report = try ScheduleExplorer(depth: 1).run()
        #expect(report.schedules == 9)
        #expect(report.noOpSteps == 9)
        #expect(report.finishedLeaves == 9)
    }
}
