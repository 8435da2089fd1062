import Foundation
import Testing

/// Nobody confirms a code without a person (issue 10): whoever joins first must not get the
/// password because the sender said yes by itself.
@Suite struct CLIConfirmationTests {
    @Test func yesIsRefusedOutsideTheDemo() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let send = try await HandoffProcess.run(scratch.sendArguments(["--yes"]))
        #expect(send.status == 64)
        #expect(send.stderr == "'handoff send' never confirms a code by itself: whoever joined first would get the password. Compare the codes and answer, or type the code the receiving device shows. ('handoff demo --yes' answers for you, because both ends are its own processes.)\n")
        #expect(!send.stdout.contains("Transfer code"), "nothing was offered")
        let receive = try await HandoffProcess.run(scratch.receiveArguments(["--yes"]), stdin: try Scratch.validCode().text + "\n")
        #expect(receive.status == 64)
        #expect(receive.stderr == "'handoff receive' never confirms a code by itself: compare the codes and answer, or type the code the sending device shows. ('handoff demo --yes' answers for you.)\n")
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
        #expect(sent.stdout.contains("Standard input ended before an answer; cancelling the transfer.\n"))
        #expect(sent.stderr.hasSuffix("You cancelled the transfer. The password was not sent.\n"))
        #expect(!sent.stdout.contains(Asked.passwordQuestion))
        #expect(received.status == 68)
        #expect(scratch.storeSnapshot() == [:])
    }

    /// Answers already waiting on standard input before any device joined (typed ahead, or a
    /// script's `yes | handoff send ...`) confirm the code of whichever device joins first and
    /// approve the export: `--yes` again, one pipe away. Here the first device is the
    /// attacker's, which answers yes itself, and it gets the password.
    ///
    /// Answers typed ahead (or `yes | handoff send`) never confirm a device that joined
    /// later: lines that arrived before a question are dropped, and from a pipe a code
    /// question takes only the code.
    @Test func answersGivenBeforeAnyDeviceJoinedDoNotConfirmIt() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        sender.write("yes\nyes\n")
        let code = try #require(await sender.transferCode())
        let attacker = try HandoffProcess(scratch.receiveArguments(store: scratch.otherStore))
        attacker.write(code + "\nyes\n")
        #expect(await sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        try await Task.sleep(for: .seconds(1))
        sender.signal(SIGINT)
        attacker.signal(SIGINT)
        let sent = await sender.finish()
        _ = await attacker.finish()
        #expect(!sent.stdout.contains("Sending the account details"), "an answer given before any device joined confirmed its code")
        #expect(!FileManager.default.fileExists(atPath: scratch.otherStore.appendingPathComponent("\(Scratch.linkID).credential").path),
                "the first device to join got the password without a person answering")
    }

    /// `yes` piped in after the code question is on screen is refused with a sentence: from a
    /// pipe, only the code the other device shows confirms; the transfer then completes.
    @Test func yesFromAPipeDoesNotConfirmACode() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        let shownByReceiver = try #require(await pair.receiver.shortCode())
        try #require(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.sender.write("yes\n")
        let refusal = "From a pipe or a file, answer with the code the other device shows; 'yes' is taken only from a person at a terminal."
        #expect(await pair.sender.waitForOutput(containing: refusal) != nil)
        #expect(!pair.sender.stdoutSoFar.contains("Sending the account details"))
        pair.sender.write(shownByReceiver + "\n")
        try await pair.receiverConfirmsAndSenderApproves()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.status == 0, "\(received.stderr)")
    }

    /// The person on `side` types a code that differs from what the other device shows (an
    /// attacker's device joined first): both sides end rejected and no password travels.
    @Test(arguments: ["sender", "receiver"])
    func aTypedWrongCodeRejectsOnBothSides(side: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        let shown = try #require(await pair.receiver.shortCode())
        let wrong = String(shown.prefix(6)) + (shown.last == "0" ? "1" : "0")
        try #require(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        if side == "sender" {
            pair.sender.write(wrong + "\n")
        } else {
            pair.sender.write(shown + "\n")
            try #require(await pair.receiver.waitForOutput(containing: Asked.codeQuestion) != nil)
            pair.receiver.write(wrong + "\n")
        }
        let (sent, received) = await pair.finish()
        #expect(sent.status == 67)
        #expect(received.status == 67)
        let typer = side == "sender" ? sent : received
        #expect(typer.stdout.contains("The code you typed differs from \(shown); the transfer is stopped.\n"))
        if side == "sender" {
            #expect(sent.stderr.hasSuffix("You rejected the transfer. If the codes differed, another device may have scanned the code: start a new transfer. The password was not sent.\n"))
            #expect(received.stderr.hasSuffix("The sending device rejected the transfer; ask for a new code if you want to try again. Nothing was imported.\n"))
        } else {
            #expect(received.stderr.hasSuffix("You rejected the transfer. If the codes differed, you may have scanned the wrong device's code: ask for a new code. Nothing was imported.\n"))
            #expect(sent.stderr.hasSuffix("The receiving device rejected the transfer; start a new transfer if you want to try again. The password was not sent.\n"))
        }
        #expect(!sent.stdout.contains(Asked.passwordQuestion), "the password was never asked for")
        #expect(scratch.storeSnapshot() == [:])
    }

    /// The right code typed with or without its space completes the transfer.
    @Test func aTypedRightCodeCompletes() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        let shownByReceiver = try #require(await pair.receiver.shortCode())
        let shownBySender = try #require(await pair.sender.shortCode())
        try #require(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.sender.write(shownByReceiver.replacingOccurrences(of: " ", with: "") + "\n")
        try #require(await pair.receiver.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.receiver.write(" " + shownBySender + " \n")
        try #require(await pair.sender.waitForOutput(containing: Asked.passwordQuestion) != nil)
        pair.sender.write("yes\n")
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.status == 0, "\(received.stderr)")
        #expect(!sent.stdout.contains("The code you typed differs") && !received.stdout.contains("The code you typed differs"))
        #expect(scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }
}
