import Foundation
import Testing
import TestProcesses

/// Ctrl-C (SIGINT) and SIGTERM end the CLI promptly in every phase before the password
/// leaves, as a cancel on both devices (exit 68), with the sentence true on each.
@Suite(.startsProcesses) struct CLISignalPhaseTests {
    enum Phase: String, CaseIterable {
        case waitingForTheReceiver, atTheCodeQuestion, atTheImportQuestion
    }

    @Test(arguments: Phase.allCases, [SIGINT, SIGTERM])
    func aSignalAtTheSenderCancelsOnBothDevices(phase: Phase, signal: Int32) async throws {
        try await Self.play(phase: phase, signal: signal, atSender: true)
    }

    @Test(arguments: [Phase.atTheCodeQuestion, .atTheImportQuestion], [SIGINT, SIGTERM])
    func aSignalAtTheReceiverCancelsOnBothDevices(phase: Phase, signal: Int32) async throws {
        try await Self.play(phase: phase, signal: signal, atSender: false)
    }

    private static func play(phase: Phase, signal: Int32, atSender: Bool) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        if phase == .waitingForTheReceiver {
            let sender = try HandoffProcess(scratch.sendArguments())
            _ = try #require(await sender.transferCode())
            sender.signal(signal)
            let sent = await sender.finish()
            #expect(sent.status == 68 && !sent.killedBySignal, "\(sent)")
            #expect(sent.stderr.hasSuffix("You cancelled the transfer. The password was not sent.\n"))
            return
        }
        let pair = try await TransferPair.start(scratch)
        let shown = try await pair.receiversCode()
        try #require(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        if phase == .atTheImportQuestion {
            pair.sender.write(shown + "\n")
            try #require(await pair.receiver.waitForOutput(containing: Asked.importQuestion) != nil)
        }
        (atSender ? pair.sender : pair.receiver).signal(signal)
        let (sent, received) = await pair.finish()
        #expect(sent.status == 68 && received.status == 68, "\(sent.stderr)\(received.stderr)")
        #expect(!sent.killedBySignal && !received.killedBySignal)
        #expect(sent.stderr.hasSuffix(atSender ? "You cancelled the transfer. The password was not sent.\n"
                                               : "The receiving device cancelled the transfer. The password was not sent.\n"))
        #expect(received.stderr.hasSuffix(atSender ? "The sending device cancelled the transfer. Nothing was imported.\n"
                                                   : "You cancelled the transfer. Nothing was imported.\n"))
        #expect(await scratch.storeSnapshot() == [:])
    }
}
