import Foundation
import Testing
import TestProcesses

/// Nobody confirms without a person, and the sending person confirms only by typing the code
/// the receiving device shows (Spec 4.4, 8.2): a careless "yes" confirms nothing.
@Suite(.startsProcesses) struct CLIConfirmationTests {
    @Test func yesIsRefusedOutsideTheDemo() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let send = try await HandoffProcess.run(scratch.sendArguments(["--yes"]))
        #expect(send.status == 64)
        #expect(send.stderr.hasSuffix("'handoff send' never confirms by itself: only the code the receiving device shows confirms it, typed by the person who reads it there. (The demo of the source tree, Scripts/demo.sh, answers for you, because both ends are its own processes.)\n"))
        #expect(!send.stdout.contains("Transfer code"), "nothing was offered")
        let receive = try await HandoffProcess.run(scratch.receiveArguments(["--yes"]), stdin: try Scratch.validCode().text + "\n")
        #expect(receive.status == 64)
        #expect(receive.stderr.hasSuffix("'handoff receive' never accepts an account by itself: the person at this terminal decides. (The demo of the source tree, Scripts/demo.sh, answers for you.)\n"))
        #expect(!FileManager.default.fileExists(atPath: scratch.store.path))
    }

    /// A sender nobody answers (standard input ended, as in a script) never confirms.
    @Test func aSenderWithoutAPersonNeverConfirms() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        pair.sender.closeInput()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 68)
        #expect(sent.stderr.hasSuffix("Standard input ended before anyone typed the code that the receiving device shows, so nobody answered and the transfer was cancelled. The password was not sent. To answer the questions yourself, run 'handoff send' on a terminal without redirecting its standard input.\n"))
        #expect(!sent.stdout.contains("Sending the account details"))
        #expect(received.status == 68)
        #expect(await scratch.storeSnapshot() == [:])
    }

    /// Answers waiting on standard input before any device joined (typed ahead, or a script's
    /// `yes | handoff send ...`) are consumed in order by the questions, but the code question
    /// takes only the six digits the receiving device shows, which nobody could type before it
    /// existed: the device that joins first, here the attacker's, gets nothing.
    @Test func answersGivenBeforeAnyDeviceJoinedDoNotConfirmIt() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        sender.write("yes\nyes\n123456\n")
        let code = try #require(await sender.transferCode())
        let attacker = try HandoffProcess(scratch.receiveArguments(store: scratch.otherStore))
        attacker.write(code + "\nyes\n")
        #expect(await sender.waitForOutput(containing: "Type the six digits shown on the receiving device; this device cannot check a yes.", count: 2))
        #expect(await sender.waitForOutput(containing: "That is not the code the receiving device shows for this transfer.") != nil)
        sender.signal(SIGINT)
        attacker.signal(SIGINT)
        let sent = await sender.finish()
        let attacked = await attacker.finish()
        #expect(sent.status == 68)
        #expect(!sent.stdout.contains("Sending the account details"), "an answer given before any device joined confirmed its code")
        #expect(!attacked.stdout.contains("offers this account"))
        #expect(await scratch.storeSnapshot(scratch.otherStore).isEmpty, "the first device to join got the account")
    }

    /// `yes` at the code question is refused with a sentence, then the code completes.
    @Test func yesIsNotAnAnswerToTheCodeQuestion() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        let shown = try await pair.receiversCode()
        try #require(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.sender.write("yes\n")
        #expect(await pair.sender.waitForOutput(containing: "Type the six digits shown on the receiving device; this device cannot check a yes.") != nil)
        #expect(!pair.sender.stdoutSoFar.contains("Sending the account details"))
        pair.sender.write(shown + "\n")
        try await pair.receiverAccepts()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.status == 0, "\(received.stderr)")
    }

    /// Spec 4.4: text that is not six digits is asked again without using a try; each wrong
    /// six-digit code uses one; the third ends the transfer as rejected on both devices, and
    /// no password travels.
    @Test func threeWrongCodesStopTheTransferAndSlipsCostNothing() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        let shown = try await pair.receiversCode()
        let wrong = String(shown.prefix(6)) + (shown.last == "0" ? "1" : "0")
        try #require(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.sender.write("861\n")
        #expect(await pair.sender.waitForOutput(containing: "A code has six digits (spaces are ignored); type the six digits the receiving device shows.") != nil)
        pair.sender.write(wrong + "\n")
        #expect(await pair.sender.waitForOutput(containing: "Check its screen and type its code again (2 more tries).") != nil)
        pair.sender.write(wrong + "\n")
        #expect(await pair.sender.waitForOutput(containing: "Check its screen and type its code again (1 more try).") != nil)
        pair.sender.write(wrong + "\n")
        let (sent, received) = await pair.finish()
        #expect(sent.status == 67)
        #expect(received.status == 67)
        // One sentence says what happened: nobody stopped anything, the tries ran out.
        #expect(sent.stderr == "The code was typed wrong 3 times, so the transfer was stopped and the password was not sent. If you typed what the receiving screen showed, another device may have used your transfer code: start a new transfer and keep its code out of sight.\n")
        #expect(!sent.all.contains("You stopped the transfer") && !sent.all.contains("The code typed did not match"))
        #expect(received.stderr.hasSuffix("The sending device stopped the transfer (its person declined, or the code typed there did not match the one on this screen); if you did not expect that, you may have scanned another device's code. Ask for a new code to try again. Nothing was imported.\n"))
        #expect(await scratch.storeSnapshot() == [:])
    }

    /// The right code typed without its space, after one slip, completes the transfer.
    @Test func aTypedRightCodeCompletes() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        let shown = try await pair.receiversCode()
        try #require(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.sender.write(String(shown.reversed()) + "\n")
        #expect(await pair.sender.waitForOutput(containing: "(2 more tries)") != nil || shown == String(shown.reversed()))
        pair.sender.write(" " + shown.replacingOccurrences(of: " ", with: "") + " \n")
        try await pair.receiverAccepts()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.stdout.contains("Code \(shown) confirmed."))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }
}
