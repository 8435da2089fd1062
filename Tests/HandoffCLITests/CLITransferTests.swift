import Foundation
import Testing

/// Whole transfers between separate `handoff` processes on 127.0.0.1.
@Suite struct CLITransferTests {
    @Test func demoCompletes() async throws {
        let result = try await HandoffProcess.run(["demo", "--yes"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sender   │ Transfer code: AH:"))
        #expect(result.stdout.contains("\u{2588}"), "the QR code is drawn")
        let codes = result.stdout.split(separator: "\n").filter { $0.contains("Short code: ") }
            .map { $0.split(separator: "Short code: ")[1].prefix(7) }
        #expect(codes.count == 2 && codes[0] == codes[1], "both sides show the same short code")
        #expect(result.stdout.contains("(answered by the demo)"))
        #expect(result.stdout.contains("Imported account, as stored by the receiver (local ID "))
        #expect(result.stdout.contains("receiver │ The account demo@example.org was imported. The mail server accepted the password, so you can use it now.\n"),
                "the demo validated the account against its local Dovecot over TLS")
        #expect(result.stdout.contains("  │ E-mail address   demo@example.org\n"))
        #expect(result.stdout.contains("  Password: (redacted)\n"))
        #expect(result.stdout.contains("  Credential file: mode 0600, identical to the password that was sent\n"))
        #expect(result.stdout.contains("  Link ID preserved: yes\n"))
        #expect(result.stderr.isEmpty)
    }

    @Test func demoAsksEachSideAndRelaysTheAnswers() async throws {
        let demo = try HandoffProcess(["demo", "--qr-style", "dark"])
        #expect(await demo.answerQuestions(3, with: "yes"), "the demo asked three questions")
        let result = await demo.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sender   │ Does the receiving device show the code "))
        #expect(result.stdout.contains("receiver │ Does the sending device show the code "))
        #expect(result.stdout.contains("sender   │ Send the password of demo@example.org to the receiving device now? [yes/no/cancel] yes\n"))
        #expect(result.stdout.contains("  Password: (redacted)\n"))
    }

    @Test func sendAndReceiveAsTwoProcessesStoreTheAccount() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.hasSuffix("Done: the receiving device imported the account.\n"))
        #expect(received.stdout.hasSuffix("Done: the account was imported.\n"))
        #expect(received.stdout.contains("  │ E-mail address   ada@example.org\n"), "the offer is shown framed")

        #expect(scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
        let stored = try #require(scratch.storedAccount)
        #expect(stored.metadata.linkID.description == Scratch.linkID, "the link ID arrives unchanged")
        #expect(stored.metadata.emailAddress == "ada@example.org")
        #expect(stored.metadata.imapPort == 993)
        let registry = scratch.store.appendingPathComponent(Scratch.registryFileName)
        let record = scratch.store.appendingPathComponent("credential-store")
        for file in [scratch.databaseFile, registry, record] {
            #expect(try mode(of: file) == 0o600, "\(file.lastPathComponent)")
        }
        // By default the password went to the keyring, not to a file.
        #expect(try String(contentsOf: record, encoding: .utf8).hasPrefix("keyring handoff-"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.store.appendingPathComponent("credentials").path).isEmpty)
        #expect(try mode(of: scratch.store) == 0o700)
        #expect(try mode(of: scratch.store.appendingPathComponent("credentials")) == 0o700)
        #expect(received.stdout.contains("The account ada@example.org was imported."))
        let listed = try await HandoffProcess.run(["accounts", "--store", scratch.store.path])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("Local ID \(stored.id):\n"))
        #expect(listed.stdout.contains("  │ E-mail address   ada@example.org\n"))
    }

    @Test func interactiveAnswersAndPasswordFromStandardInput() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(["send", "--account", scratch.accountFile.path, "--password-stdin", "--lifetime", "60"])
        sender.write(HandoffProcess.testPassword + "\n")
        let code = try #require(await sender.transferCode())
        let receiver = try HandoffProcess(scratch.receiveArguments())
        receiver.write(code + "\n")
        let pair = TransferPair(sender: sender, receiver: receiver, code: code)
        let shownByReceiver = try #require(await receiver.shortCode())
        let shownBySender = try #require(await sender.shortCode())
        try #require(await sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        sender.write(shownByReceiver + "\n")
        try #require(await receiver.waitForOutput(containing: Asked.codeQuestion) != nil)
        receiver.write("maybe\n")
        try #require(await receiver.waitForOutput(containing: "Please type the code the other device shows") != nil)
        receiver.write(shownBySender + "\n")
        try #require(await sender.waitForOutput(containing: Asked.passwordQuestion) != nil)
        sender.write("yes\n")
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.stdout.contains("Password: read from standard input (not shown).\n"))
        #expect(sent.stdout.contains("\u{2588}"), "send draws the QR by default")
        #expect(received.stdout.contains("[code/yes/no/cancel] maybe\nPlease type the code the other device shows, or yes, no or cancel.\n"))
        #expect(scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    @Test func receiverCancelLeavesTheStoreUnchanged() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        let shownByReceiver = try #require(await pair.receiver.shortCode())
        #expect(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.sender.write(shownByReceiver + "\n")
        #expect(await pair.receiver.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.receiver.write("cancel\n")
        let (sent, received) = await pair.finish()
        #expect(received.status == 68)
        #expect(received.stderr.hasSuffix("You cancelled the transfer. Nothing was imported.\n"))
        #expect(sent.status == 68)
        #expect(sent.stderr.hasSuffix("The receiving device cancelled the transfer. The password was not sent.\n"))
        #expect(scratch.storeSnapshot() == [:])
    }

    @Test func senderCancelLeavesTheStoreUnchanged() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        #expect(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.sender.write("cancel\n")
        let (sent, received) = await pair.finish()
        #expect(sent.status == 68)
        #expect(sent.stderr.hasSuffix("You cancelled the transfer. The password was not sent.\n"))
        #expect(received.status == 68)
        #expect(received.stderr.hasSuffix("The sending device cancelled the transfer. Nothing was imported.\n"))
        #expect(scratch.storeSnapshot() == [:])
    }

    @Test func senderDecliningTheExportLeavesTheStoreUnchanged() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        try await pair.confirmCodes()
        #expect(await pair.sender.waitForOutput(containing: Asked.passwordQuestion) != nil)
        pair.sender.write("no\n")
        let (sent, received) = await pair.finish()
        #expect(sent.status == 67)
        #expect(received.status == 67)
        #expect(received.stderr.hasSuffix("The sending device rejected the transfer; ask for a new code if you want to try again. Nothing was imported.\n"))
        #expect(scratch.storeSnapshot() == [:])
    }

    @Test func interruptWhileWaitingCancels() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        _ = try #require(await sender.transferCode())
        sender.signal(SIGINT)
        let sent = await sender.finish()
        #expect(sent.status == 68)
        #expect(!sent.killedBySignal)
        #expect(sent.stdout.contains("Cancelling the transfer (interrupted).\n"))
        #expect(sent.stderr.hasSuffix("You cancelled the transfer. The password was not sent.\n"))
    }

    /// An account already in the store is replaced only when the person says so, and the
    /// question comes before the password travels.
    @Test func existingAccountIsReplacedOnlyWhenThePersonSaysSo() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let first = try await TransferPair.start(scratch)
        try await first.confirmByTypingCodes()
        #expect(await first.finish().received.status == 0)
        let before = scratch.storeSnapshot()
        #expect(before.count == 1)

        let second = try await TransferPair.start(scratch)
        let shownBySecondReceiver = try #require(await second.receiver.shortCode())
        #expect(await second.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        second.sender.write(shownBySecondReceiver + "\n")
        #expect(await second.receiver.waitForOutput(containing: "This device already has an account like it:\n") != nil)
        #expect(await second.receiver.waitForOutput(containing: "[replace/keep/cancel] ") != nil)
        second.receiver.write("cancel\n")
        let (refusedSend, refused) = await second.finish()
        #expect(refused.status == 67)
        #expect(refusedSend.status == 67)
        #expect(!refusedSend.stdout.contains("Send the password"), "the password was never requested")
        #expect(scratch.storeSnapshot() == before)

        let third = try await TransferPair.start(scratch, receiver: ["--on-conflict", "replace"])
        try await third.confirmByTypingCodes()
        let (replacedSend, replaced) = await third.finish()
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replacedSend.status == 0)
        #expect(replaced.stdout.contains("Chosen with --on-conflict: replace the stored account.\n"))
        #expect(scratch.storeSnapshot().keys == before.keys, "replacing keeps the local ID")
        #expect(scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    @Test func longExpiredCodeIsRefusedByReceiveWithExitCode66() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.expiredCode() + "\n")
        #expect(result.status == 66)
        #expect(result.stderr == "The code expired before the transfer finished; ask the sending device for a new code. Nothing was imported.\n")
        #expect(scratch.storeSnapshot() == [:])
    }

    @Test func nobodyListeningIsAFailureWithAnExplanation() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n")
        #expect(result.status == 70)
        #expect(result.stderr == "The transfer failed: Nothing answered at the address in this code: check that the sending device still shows it and is on the same network, then try again. Nothing was imported.\n")
        #expect(scratch.storeSnapshot() == [:])
    }

    private func mode(of url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }
}
