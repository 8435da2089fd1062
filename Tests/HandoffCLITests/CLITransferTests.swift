import Foundation
import Testing
import TestProcesses

/// Whole transfers between separate `handoff` processes on 127.0.0.1.
@Suite(.startsProcesses) struct CLITransferTests {
    @Test func demoCompletes() async throws {
        let result = try await HandoffProcess.run(["demo", "--yes"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sender   │ Transfer code: AH:"))
        #expect(result.stdout.contains("\u{2588}"), "the QR code is drawn")
        let shown = result.stdout.split(separator: "\n").filter { $0.contains("Code for the sending device: ") }
            .map { $0.split(separator: "Code for the sending device: ")[1].prefix(7) }
        #expect(shown.count == 1, "the receiver shows the code, the sender does not")
        #expect(result.stdout.contains("sender   │ Code \(shown.first ?? "") confirmed."), "the sender typed the receiver's code")
        #expect(result.stdout.contains("(answered by the demo)"))
        #expect(result.stdout.contains("[login password] (typed by the demo, not shown)"), "both gates asked")
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
        #expect(await demo.walkThroughDemo())
        let result = await demo.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sender   │ Type the six-digit code that the receiving device shows"))
        #expect(result.stdout.contains("receiver │ Import this account"))
        #expect(!result.stdout.contains("demo-login\n"), "the login password is never echoed")
        #expect(result.stdout.contains("  Password: (redacted)\n"))
        // Each question keeps its line: the other side's lines go below it, never after its marker.
        for line in result.stdout.split(separator: "\n") {
            for marker in [Asked.codeQuestion, Asked.importQuestion, Asked.loginPassword] {
                guard let range = line.range(of: marker) else { continue }
                #expect(!line[range.upperBound...].contains("│"), "another line was printed after a question: \(line)")
            }
        }
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
        // --no-local-auth: nobody is asked, so no sentence says that someone is.
        #expect(sent.stdout.contains("The receiving device accepted the account.\n"))
        #expect(!sent.all.contains("confirm that it is you") && !received.all.contains("confirm that it is you"))

        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
        let stored = try #require(await scratch.storedAccount)
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
        let sender = try HandoffProcess(["send", "--account", scratch.accountFile.path, "--password-stdin", "--lifetime", String(Scratch.longestLifetime),
                                         "--no-local-auth"])
        sender.write(HandoffProcess.testPassword + "\n")
        let code = try #require(await sender.transferCode())
        let receiver = try HandoffProcess(scratch.receiveArguments())
        receiver.write(code + "\n")
        let pair = TransferPair(sender: sender, receiver: receiver, code: code)
        let shownByReceiver = try #require(await receiver.shortCode())
        try #require(await sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        sender.write(shownByReceiver + "\n")
        try #require(await receiver.waitForOutput(containing: Asked.importQuestion) != nil)
        receiver.write("maybe\n")
        try #require(await receiver.waitForOutput(containing: "Please answer yes, no or cancel.") != nil)
        receiver.write("yes\n")
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.stdout.contains("Password: read from standard input (not shown).\n"))
        #expect(sent.stdout.contains("\u{2588}"), "send draws the QR by default")
        #expect(received.stdout.contains("[yes/no/cancel] maybe\nPlease answer yes, no or cancel.\n"))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    @Test func receiverCancelLeavesTheStoreUnchanged() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        let shownByReceiver = try await pair.receiversCode()
        #expect(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.sender.write(shownByReceiver + "\n")
        #expect(await pair.receiver.waitForOutput(containing: Asked.importQuestion) != nil)
        pair.receiver.write("cancel\n")
        let (sent, received) = await pair.finish()
        #expect(received.status == 68)
        #expect(received.stderr.hasSuffix("You cancelled the transfer. Nothing was imported.\n"))
        #expect(sent.status == 68)
        #expect(sent.stderr.hasSuffix("The receiving device cancelled the transfer. The password was not sent.\n"))
        #expect(await scratch.storeSnapshot() == [:])
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
        #expect(await scratch.storeSnapshot() == [:])
    }

    /// The sending person answers no at the code question (the receiving screen shows another
    /// device's account, say): both end rejected; nothing travels.
    @Test func senderDecliningLeavesTheStoreUnchanged() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        #expect(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.sender.write("no\n")
        let (sent, received) = await pair.finish()
        #expect(sent.status == 67)
        #expect(received.status == 67)
        #expect(sent.stderr.hasSuffix("You stopped the transfer; start a new transfer if you want to try again. The password was not sent.\n"))
        #expect(received.stderr.hasSuffix("The sending device stopped the transfer (its person declined, or the code typed there did not match the one on this screen); if you did not expect that, you may have scanned another device's code. Ask for a new code to try again. Nothing was imported.\n"))
        #expect(await scratch.storeSnapshot() == [:])
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
        let before = await scratch.storeSnapshot()
        #expect(before.count == 1)

        let second = try await TransferPair.start(scratch)
        let shownBySecondReceiver = try await second.receiversCode()
        #expect(await second.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        second.sender.write(shownBySecondReceiver + "\n")
        #expect(await second.receiver.waitForOutput(containing: "This device already has an account like it:\n") != nil)
        #expect(await second.receiver.waitForOutput(containing: "[replace/cancel] ") != nil)
        second.receiver.write("cancel\n")
        let (refusedSend, refused) = await second.finish()
        #expect(refused.status == 68)
        #expect(refusedSend.status == 68)
        #expect(refusedSend.stderr.hasSuffix("The receiving device cancelled the transfer. The password was not sent.\n"))
        #expect(!refusedSend.stdout.contains("Password sent"), "the password never left")
        #expect(await scratch.storeSnapshot() == before)

        let third = try await TransferPair.start(scratch, receiver: ["--on-conflict", "replace"])
        try await third.confirmByTypingCodes()
        let (replacedSend, replaced) = await third.finish()
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replacedSend.status == 0)
        #expect(replaced.stdout.contains("Chosen with --on-conflict: replace the stored account.\n"))
        #expect(await scratch.storeSnapshot().keys == before.keys, "replacing keeps the local ID")
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    @Test func longExpiredCodeIsRefusedByReceiveWithExitCode66() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.expiredCode() + "\n")
        #expect(result.status == 66)
        #expect(result.stderr.hasPrefix("This code expired 20 min "))
        #expect(result.stderr.hasSuffix(" s ago, so this device did not try to connect; ask the sending person to start a new transfer and use its new code. Nothing was imported.\n"))
        #expect(await scratch.storeSnapshot() == [:])
    }

    @Test func nobodyListeningIsAFailureWithAnExplanation() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: try Scratch.validCode().text + "\n")
        #expect(result.status == 70)
        #expect(result.stderr == "Nothing answered at 127.0.0.1:9, the address in this code: 127.0.0.1 is the sending computer itself, so the code works only there. If you are on another computer, \(CLICodeAddressTests.restart); on the same computer, check that 'handoff send' still shows this code. Nothing was imported.\n")
        #expect(await scratch.storeSnapshot() == [:])
    }

    private func mode(of url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }
}
