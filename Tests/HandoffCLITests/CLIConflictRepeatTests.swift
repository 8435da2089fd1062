import Foundation
import Testing
import TestProcesses

/// The collision question of the real CLI, played the way a person answers it (each answer
/// once its question is on screen), many times in a row: every answer is taken by its
/// question, every time. Three rounds of each answer in `swift test`; fifty in the slow slice.
@Suite(.startsProcesses) struct CLIConflictRepeatTests {
    @Test func replaceKeepAndCancelAreTakenEveryTime() async throws {
        try await Self.play(rounds: 3)
    }

    @Test(.slowSlice)
    func replaceKeepAndCancelFiftyTimesEach() async throws {
        try await Self.play(rounds: 50)
    }

    private static func play(rounds: Int) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let first = try await TransferPair.start(scratch)
        try await first.confirmByTypingCodes()
        #expect(await first.finish().received.status == 0)
        // Another account (another link ID) at the same address on the same server.
        let lookalike = try Scratch(account: Scratch.accountJSON.replacingOccurrences(of: Scratch.linkID, with: UUID().uuidString))
        defer { lookalike.remove() }
        var stored = 1
        for round in 1...rounds {
            for answer in ["replace", "keep", "cancel"] {
                let sender = answer == "keep" ? lookalike : scratch
                if answer == "keep" {
                    let fresh = Scratch.accountJSON.replacingOccurrences(of: Scratch.linkID, with: UUID().uuidString)
                    try Data(fresh.utf8).write(to: lookalike.accountFile)
                }
                let pair = try await TransferPair.start(sender, store: scratch.store)
                try await pair.senderTypesTheReceiversCode()
                let marker = answer == "keep" ? "[replace/keep/cancel] " : "[replace/cancel] "
                try #require(await pair.receiver.waitForOutput(containing: marker) != nil, "round \(round), \(answer): no question")
                pair.receiver.write(answer + "\n")
                if answer != "cancel" { try await pair.receiverAccepts() }
                let (sent, received) = await pair.finish()
                let expected: Int32 = answer == "cancel" ? 68 : 0
                #expect(received.status == expected && sent.status == expected, "round \(round), \(answer): \(received.stderr)")
                #expect(!received.all.contains("No question is waiting"))
                if answer == "keep" { stored += 1 }
                #expect(await scratch.storeSnapshot().count == stored, "round \(round), \(answer)")
            }
        }
    }
}
