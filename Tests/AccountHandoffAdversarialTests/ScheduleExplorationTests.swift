import AccountHandoff
import AccountHandoffSimulation
import Foundation
import Testing
import TestProcesses

/// Exhaustive schedule exploration on the real state machines (see ``ScheduleExplorer``):
/// every interleaving of deliveries (any order, the reveal included), drops, both people's
/// confirm/reject/cancel, the apps' credential and import results, clock jumps to the expiry,
/// to the receiver's expiry plus skew and to the receipt wait's end (expiry + 120 s; an
/// importing receiver never expires), ticks and transport loss, up to the stated depth, with
/// every property asserted after every step and at the end of every schedule.
@Suite struct ScheduleExplorationTests {
    /// Every schedule up to ``Explorations/fullDepth`` (14: no schedule is cut off any more,
    /// every one ends before the bound, so the exploration is complete for this alphabet).
    @Test(.slowSlice) func everyScheduleUpToTheDepthKeepsEveryProperty() async throws {
        let run = try await Explorations.full()
        let report = run.report
        print(Self.summary(report, seconds: run.seconds))
        #expect(report.truncatedLeaves == 0, "schedules cut by the depth bound: the exploration is not complete")
        #expect(report.schedules >= 300_000)  // 325,695 at depth 14
        #expect(report.finishedLeaves >= 300)
        #expect(report.importingLeaves > 0)
        let senderEnds = Set(report.outcomePairs.keys.map { String($0.split(separator: "|")[0]).trimmingCharacters(in: .whitespaces) })
        let receiverEnds = Set(report.outcomePairs.keys.map { String($0.split(separator: "|")[1]).trimmingCharacters(in: .whitespaces) })
        for outcome in ["completed.imported", "completed.validationFailed", "completed.declined", "cancelled.local", "cancelled.peer",
                        "rejected.local", "rejected.peer", "expired", "failed.transportLost"] {
            #expect(senderEnds.contains(outcome), "sender never ended \(outcome)")
            #expect(receiverEnds.contains(outcome), "receiver never ended \(outcome)")
        }
        for outcome in ["deliveredUnconfirmed.cancelled.local", "deliveredUnconfirmed.cancelled.peer", "deliveredUnconfirmed.rejected.peer",
                        "deliveredUnconfirmed.expired", "deliveredUnconfirmed.failed.transportLost"] {
            #expect(senderEnds.contains(outcome), "sender never ended \(outcome)")
        }
    }

    /// At depth 1 the effective first steps are exactly: deliver or drop the hello, the
    /// receiving person's cancel, the sending person's cancel, three clock jumps and two
    /// transport losses. The other sixteen candidates (confirm or reject without a code, a
    /// gate or store failure with nothing to authenticate, the apps' events, ticks before
    /// expiry) are refused or change nothing.
    @Test func depthOneCoversEveryEffectiveFirstStep() throws {
        let report = try ScheduleExplorer(depth: 1).run()
        #expect(report.schedules == 9)
        #expect(report.noOpSteps == 16)
        #expect(report.finishedLeaves == 9)
    }

    static func summary(_ report: ScheduleExplorer.Report, seconds: Double) -> String {
        "schedule exploration\(report.secondDevice ? " (with a second device)" : ""): depth \(report.depth), \(report.schedules) schedules, "
            + "\(report.distinctStates) states, \(report.expandedNodes) nodes, \(report.checkedSteps) checked steps, "
            + "\(report.replayedSteps) replayed steps, \(report.noOpSteps) no-op steps, \(report.finishedLeaves) finished leaves "
            + "(\(report.importingLeaves) importing, \(report.truncatedLeaves) cut by the bound), \(String(format: "%.1f", seconds)) s"
    }
}
