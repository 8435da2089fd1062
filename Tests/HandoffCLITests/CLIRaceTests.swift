import Foundation
import Testing
import TestProcesses

/// Two devices that both used the code: the second device is told that another device had
/// joined first (69), never "connection lost", and the sender's outcome is true; and a device that wins the
/// race with a photographed code gets nothing, however careless the sending person (Spec 8.2).
@Suite(.startsProcesses) struct CLIRaceTests {
    static let contestedForSender = "Another device tried to join this transfer (this device saw it, or the receiving device reported it), so it was stopped; start a new transfer and keep the code out of sight. The password was not sent.\n"
    static let contestedForReceiver = "Another device tried to join this transfer (this device saw it, or the sending device reported it), so it was stopped; start a new transfer and keep the code out of sight. Nothing was imported.\n"
    /// The device that came second is told the transfer is taken, not that another device joined.
    static let takenForSecondReceiver = "Another device had already joined this transfer with the same code, so this device was turned away and got nothing; if the transfer was meant for this device, ask the sending person to start a new one and keep its code out of sight. Nothing was imported.\n"

    /// Before the password left: the transfer stops for everyone.
    @Test func aSecondDeviceBeforeDeliveryStopsTheTransferForEveryone() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        #expect(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        let second = try HandoffProcess(scratch.receiveArguments(store: scratch.otherStore))
        second.write(pair.code + "\n")
        let secondResult = await second.finish()
        let (sent, first) = await pair.finish()
        #expect(sent.status == 69)
        #expect(sent.stderr.hasSuffix(Self.contestedForSender))
        #expect(first.status == 69)
        #expect(first.stderr.hasSuffix(Self.contestedForReceiver))
        #expect(secondResult.status == 69)
        #expect(secondResult.stderr.hasSuffix(Self.takenForSecondReceiver))
        #expect(await scratch.storeSnapshot() == [:])
        #expect(await scratch.storeSnapshot(scratch.otherStore) == [:])
    }

    /// The race of Spec 8.2 with the real binaries: a shoulder-surfer who photographed the
    /// code joins first (its hello wins; the honest receiving device has not joined, as if its
    /// hello were dropped). The sending person, careless, answers "yes" and then types what the
    /// honest receiving screen shows: nothing, so they press Enter. Nothing confirms the
    /// shoulder-surfer's session: it never sees the account, and the sender ends when the
    /// person cancels. In version 2 the first "yes" gave it the account.
    @Test func aPhotographedCodeThatWinsTheRaceGetsNothing() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        let code = try #require(await sender.transferCode())
        let surfer = try HandoffProcess(scratch.receiveArguments(store: scratch.otherStore))
        surfer.write(code + "\n")
        let surfersCode = try #require(await surfer.shortCode(), "the shoulder-surfer's session got no code")
        try #require(await sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        sender.write("yes\n")
        #expect(await sender.waitForOutput(containing: "this device cannot check a yes.") != nil)
        sender.write("\n")
        #expect(await sender.waitForOutput(containing: "Please type the six digits the receiving device shows, or no, or cancel.") != nil)
        sender.write("cancel\n")
        let sent = await sender.finish()
        let surfed = await surfer.finish()
        // The whole run, to its end: nothing confirmed the shoulder-surfer's session.
        #expect(!sent.stdout.contains("confirmed. Sending the account details"))
        #expect(sent.status == 68)
        #expect(sent.stderr.hasSuffix("You cancelled the transfer. The password was not sent.\n"))
        #expect(surfed.status == 68)
        #expect(!surfed.stdout.contains("offers this account"), "the shoulder-surfer saw the account")
        #expect(!sent.all.contains(surfersCode), "the sender printed the code of its session")
        #expect(await scratch.storeSnapshot(scratch.otherStore) == [:])
    }

    /// A second hello while the sender waits for the receipt (the password already left to
    /// the first receiver, which is slow to import: stopped with SIGSTOP while the sending
    /// person passes the gate): the sender completes and warns, the first receiver imports,
    /// the second device gets nothing and is told another device joined.
    @Test func aSecondDeviceAfterThePasswordLeftGetsNothingAndTheSenderWarns() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.startGatedAndAccepted(scratch)
        try await pair.answerGate(of: pair.receiver)
        try #require(await pair.sender.waitForOutput(containing: Asked.loginPassword) != nil)
        pair.receiver.signal(SIGSTOP)
        pair.sender.write(CLIGate.password + "\n")
        #expect(await pair.sender.waitForOutput(containing: "Password sent (encrypted); it cannot be taken back.") != nil)

        let second = try HandoffProcess(scratch.receiveArguments(store: scratch.otherStore))
        second.write(pair.code + "\n")
        let secondResult = await second.finish()
        #expect(await pair.sender.waitForOutput(containing: "Warning: another device", inErrors: true) != nil)
        pair.receiver.signal(SIGCONT)
        let (sent, first) = await pair.finish()

        #expect(secondResult.status == 69)
        #expect(secondResult.stderr.hasSuffix(Self.takenForSecondReceiver))
        #expect(await scratch.storeSnapshot(scratch.otherStore) == [:], "the second device stored nothing")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.hasSuffix("Done: the receiving device imported the account.\n"))
        #expect(sent.stderr == "Warning: another device proved it saw this transfer code after the password had left; it received nothing. Keep transfer codes out of sight.\n")
    }
}

/// Outcomes that are true on both devices once the password has left.
@Suite(.startsProcesses) struct CLIDeliveredOutcomeTests {
    /// Ctrl-C after "Password sent": the sender cannot take it back and says so (71), while
    /// the receiver (slow to import: stopped meanwhile) imports it.
    @Test func interruptAfterThePasswordLeftSaysItWasSent() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.startGatedAndAccepted(scratch)
        try await pair.answerGate(of: pair.receiver)
        try #require(await pair.sender.waitForOutput(containing: Asked.loginPassword) != nil)
        pair.receiver.signal(SIGSTOP)
        pair.sender.write(CLIGate.password + "\n")
        #expect(await pair.sender.waitForOutput(containing: "Password sent (encrypted); it cannot be taken back.") != nil)
        pair.sender.signal(SIGINT)
        let sent = await pair.sender.finish()
        pair.receiver.signal(SIGCONT)
        let received = await pair.receiver.finish()

        #expect(sent.status == 71)
        // Nothing is cancelled any more: the line says what Ctrl-C does now.
        #expect(sent.stdout.contains("Interrupted: the password has already been sent, so this only stops waiting for the receiving device to confirm the import.\n"))
        #expect(!sent.stdout.contains("Cancelling"))
        #expect(sent.stderr == "The password was sent to the receiving device, but you stopped waiting for its confirmation, so this device cannot tell whether it was imported. Check on the receiving device; if it was not the device you meant, change the account's password.\n")
        #expect(!sent.all.lowercased().contains("nothing was imported"))
        #expect(!sent.all.contains("The password was not sent"))
        #expect(received.status == 0, "\(received.stderr)")
        #expect(received.stdout.hasSuffix("Done: the account was imported.\n"))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }
}
