import AccountHandoff
import AccountHandoffSimulation
import Foundation
import Testing
import TestProcesses

/// Outcomes that are true on both devices (Spec 6.4.1, Spec 8.4): every schedule of
/// the honest pair up to a depth bound (``Explorations/full``, and a second device racing the
/// honest receiver, ``Explorations/race``) ends in a (sender outcome, receiver outcome) pair,
/// and no reached pair contradicts itself. Each reached pair is classified by the row of the
/// Spec 6.4.1 table that allows it; a pair that fits no row fails the test, so does one of the
/// contradictions that table rules out (the receiver imported while the sender says nothing left;
/// the sender reports a receipt the receiver did not send; the receiver got the credential
/// while the sender's outcome is `ended`). Every world also checks ``OutcomeTruth`` on its
/// own facts (which frames left, what the app stored), independently of this table.
///
/// The table of reached pairs with their schedule counts is printed and written to
/// `outcome-pairs.txt` in the temporary directory (the path is printed too).
@Suite struct OutcomePairTests {
    /// The rows of Spec 6.4.1 (what each person is told), as predicates on outcome identifiers.
    enum Row: String, CaseIterable {
        case sameReceipt = "6.4.1 row 1-3: completed.X | completed.X"
        case deliveredThenImported = "6.4.1 row 4: deliveredUnconfirmed.* | completed.*"
        case deliveredWhileReceiverStopped = "6.4.1 row 5: deliveredUnconfirmed.* | cancelled.local/rejected.local/storeUnavailable.local"
        case deliveredNeverArrived = "6.4.1 row 6: deliveredUnconfirmed.* | expired, failed.transportLost"
        case nothingSent = "6.4.1 row 7: nothing sent | nothing imported"

        /// The row that allows `sender | receiver`, or `nil` for a contradiction. A `.peer`
        /// ending on one side needs the matching `.local` ending on the other (nobody is told
        /// that the other person did what they did not do).
        static func classify(sender: String, receiver: String) -> Row? {
            let delivered = sender.hasPrefix("deliveredUnconfirmed.")
            let senderEnd = delivered ? String(sender.dropFirst("deliveredUnconfirmed.".count)) : sender
            for ending in ["cancelled", "rejected", "notAuthenticated", "storeUnavailable"] {
                if senderEnd == "\(ending).peer", receiver != "\(ending).local" { return nil }
                if receiver == "\(ending).peer", sender != "\(ending).local" { return nil }
            }
            if receiver == "contested", sender != "contested" { return nil }
            let receiverStopped = ["cancelled.local", "rejected.local", "notAuthenticated.local", "storeUnavailable.local"].contains(receiver)
            let receiverNothing = receiverStopped
                || ["cancelled.peer", "rejected.peer", "notAuthenticated.peer", "storeUnavailable.peer", "contested", "expired"].contains(receiver)
                || receiver.hasPrefix("failed.")
            switch (sender, receiver) {
            case _ where sender.hasPrefix("completed.") && sender == receiver: return .sameReceipt
            case _ where delivered && receiver.hasPrefix("completed."): return .deliveredThenImported
            case _ where delivered && receiverStopped: return .deliveredWhileReceiverStopped
            case _ where delivered && ["expired", "failed.transportLost"].contains(receiver): return .deliveredNeverArrived
            case _ where ["cancelled.local", "cancelled.peer", "rejected.local", "rejected.peer", "notAuthenticated.local",
                          "notAuthenticated.peer", "storeUnavailable.local", "storeUnavailable.peer", "contested", "expired"].contains(sender)
                || sender.hasPrefix("failed."):
                return receiverNothing ? .nothingSent : nil
            default:
                return nil
            }
        }
    }

    /// The contradictions Spec 6.4.1 rules out are refused by the classification itself (so the test can fail).
    @Test func theClassificationRefusesTheRuledOutContradictions() {
        #expect(Row.classify(sender: "cancelled.local", receiver: "completed.imported") == nil)
        #expect(Row.classify(sender: "contested", receiver: "completed.imported") == nil)
        #expect(Row.classify(sender: "expired", receiver: "completed.imported") == nil)
        #expect(Row.classify(sender: "completed.imported", receiver: "completed.declined") == nil)
        #expect(Row.classify(sender: "completed.imported", receiver: "expired") == nil)
        #expect(Row.classify(sender: "expired", receiver: "cancelled.peer") == nil)
        #expect(Row.classify(sender: "deliveredUnconfirmed.rejected.peer", receiver: "cancelled.local") == nil)
        #expect(Row.classify(sender: "cancelled.peer", receiver: "rejected.local") == nil)
        #expect(Row.classify(sender: "deliveredUnconfirmed.expired", receiver: "completed.imported") == .deliveredThenImported)
        #expect(Row.classify(sender: "deliveredUnconfirmed.expired", receiver: "cancelled.local") == .deliveredWhileReceiverStopped)
        #expect(Row.classify(sender: "cancelled.peer", receiver: "cancelled.local") == .nothingSent)
    }

    /// Every pair reached by both explorations fits a row of Spec 6.4.1; the table is printed.
    @Test(.slowSlice) func everyReachedPairIsTrueOnBothDevices() async throws {
        async let racing = Explorations.race()  // both at once, each on a thread of its own
        let full = try await Explorations.full()
        let race = try await racing
        var table = "Reached (sender outcome | receiver outcome) pairs, schedules per pair\n"
        var contradictions: [String] = []
        for (title, run) in [("full alphabet", full), ("second device racing the honest receiver", race)] {
            table += "\n\(title): depth \(run.report.depth), \(run.report.schedules) schedules, "
                + "\(run.report.truncatedLeaves == 0 ? "complete" : "\(run.report.truncatedLeaves) leaves cut by the bound")\n"
            for (pair, count) in run.report.outcomePairs.sorted(by: { $0.key < $1.key }) {
                let parts = pair.components(separatedBy: " | ")
                let row = Row.classify(sender: parts[0], receiver: parts[1])
                if row == nil { contradictions.append(pair) }
                table += "  \(pair.padding(toLength: 58, withPad: " ", startingAt: 0)) \(String(count).padding(toLength: 8, withPad: " ", startingAt: 0)) "
                    + "\(row?.rawValue ?? "CONTRADICTION")\n"
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("outcome-pairs.txt")
        try table.write(to: file, atomically: true, encoding: .utf8)
        print(table + "\n(written to \(file.path))")
        #expect(contradictions.isEmpty, "pairs that contradict themselves: \(contradictions)")
        let reached = Set(full.report.outcomePairs.keys).union(race.report.outcomePairs.keys)
        for pair in ["completed.imported | completed.imported", "completed.declined | completed.declined",
                     "completed.validationFailed | completed.validationFailed", "deliveredUnconfirmed.expired | completed.imported",
                     "deliveredUnconfirmed.cancelled.local | completed.imported", "deliveredUnconfirmed.cancelled.peer | cancelled.local",
                     "deliveredUnconfirmed.failed.transportLost | completed.imported", "contested | contested"] {
            #expect(reached.contains(pair), "never reached \(pair)")
        }
        // The pairs Spec 6.4.1 rules out (the receiver imported, the sender says nothing left) are never reached.
        for sender in ["cancelled.local", "contested", "expired"] {
            #expect(!reached.contains("\(sender) | completed.imported"))
        }
    }
}
