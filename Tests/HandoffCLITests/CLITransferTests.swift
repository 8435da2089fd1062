import Foundation
import Testing

/// Whole transfers between separate `handoff` processes on 127.0.0.1.
@Suite struct CLITransferTests {
    @Test func demoCompletes() throws {
        let start = ContinuousClock.now
        let result = try HandoffProcess.run(["demo", "--yes"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sender   │ Transfer code: AH:"))
        #expect(result.stdout.contains("\u{2588}"), "the QR code is drawn")
        let codes = result.stdout.split(separator: "\n").filter { $0.contains("Short code: ") }
            .map { $0.split(separator: "Short code: ")[1].prefix(7) }
        #expect(codes.count == 2 && codes[0] == codes[1], "both sides show the same short code")
        #expect(result.stdout.contains("Imported account, as stored by the receiver:\n"))
        #expect(result.stdout.contains("  Email address: demo@example.org\n"))
        #expect(result.stdout.contains("  Password: (redacted)\n"))
        #expect(result.stdout.contains("  Credential file: mode 0600, identical to the password that was sent\n"))
        #expect(result.stdout.contains("  Link ID preserved: yes\n"))
        #expect(result.stderr.isEmpty)
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func demoAsksEachSideAndRelaysTheAnswers() throws {
        let result = try HandoffProcess.run(["demo", "--qr-style", "dark"], stdin: "yes\nyes\nyes\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sender   │ Does the receiving device show the code "))
        #expect(result.stdout.contains("receiver │ Does the sending device show the code "))
        #expect(result.stdout.contains("sender   │ Send the password of demo@example.org to the receiving device now? [yes/no/cancel] yes\n"))
        #expect(result.stdout.contains("  Password: (redacted)\n"))
    }

    @Test func sendAndReceiveAsTwoProcessesStoreTheAccount() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments(["--yes"]))
        let code = try #require(sender.transferCode())
        let received = try HandoffProcess.run(scratch.receiveArguments(code, ["--yes"]))
        let sent = sender.finish()
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.hasSuffix("Done: the receiving device imported the account.\n"))
        #expect(received.stdout.hasSuffix("Done: the account was imported.\n"))

        let metadata = scratch.store.appendingPathComponent("\(Scratch.linkID).json")
        let credential = scratch.store.appendingPathComponent("\(Scratch.linkID).credential")
        #expect(try Data(contentsOf: credential) == Data(HandoffProcess.testPassword.utf8))
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: metadata)) as? [String: Any])
        #expect(stored["accountLinkID"] as? String == Scratch.linkID)
        #expect(stored["emailAddress"] as? String == "ada@example.org")
        #expect(stored["imapPort"] as? Int == 993)
        for file in [metadata, credential] {
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file.lastPathComponent)")
        }
        let directoryMode = try FileManager.default.attributesOfItem(atPath: scratch.store.path)[.posixPermissions] as? Int
        #expect(directoryMode == 0o700)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: scratch.store.path)) == [metadata.lastPathComponent, credential.lastPathComponent])
        #expect(received.stdout.contains("Stored the account in \(metadata.path) and its password in \(credential.path) (mode 0600; this file stands in for the Keychain).\n"))
    }

    @Test func interactiveAnswersAndPasswordFromStandardInput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(["send", "--account", scratch.accountFile.path, "--password-stdin", "--lifetime", "30"])
        sender.write(HandoffProcess.testPassword + "\nyes\nyes\n")
        let code = try #require(sender.transferCode())
        let received = try HandoffProcess.run(scratch.receiveArguments(code), stdin: "maybe\nyes\n")
        let sent = sender.finish()
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.stdout.contains("Password: read from standard input (not shown).\n"))
        #expect(sent.stdout.contains("\u{2588}"), "send draws the QR by default")
        #expect(received.stdout.contains("[yes/no/cancel] \nPlease answer yes, no or cancel.\n"))
        #expect(try Data(contentsOf: scratch.store.appendingPathComponent("\(Scratch.linkID).credential")) == Data(HandoffProcess.testPassword.utf8))
    }

    @Test func receiverCancelLeavesTheStoreUnchanged() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let before = scratch.storeSnapshot()
        let sender = try HandoffProcess(scratch.sendArguments(["--yes"]))
        let code = try #require(sender.transferCode())
        let received = try HandoffProcess.run(scratch.receiveArguments(code), stdin: "cancel\n")
        let sent = sender.finish()
        #expect(received.status == 68)
        #expect(received.stderr.hasSuffix("You cancelled the transfer; nothing was imported.\n"))
        #expect(sent.status == 68)
        #expect(sent.stderr.hasSuffix("The receiving device cancelled the transfer; nothing was imported.\n"))
        #expect(scratch.storeSnapshot() == before)
    }

    @Test func senderCancelLeavesTheStoreUnchanged() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let before = scratch.storeSnapshot()
        let sender = try HandoffProcess(scratch.sendArguments())
        sender.write("cancel\n")
        let code = try #require(sender.transferCode())
        let received = try HandoffProcess.run(scratch.receiveArguments(code, ["--yes"]))
        let sent = sender.finish()
        #expect(sent.status == 68)
        #expect(sent.stderr.hasSuffix("You cancelled the transfer; nothing was imported.\n"))
        #expect(received.status == 68)
        #expect(received.stderr.hasSuffix("The sending device cancelled the transfer; nothing was imported.\n"))
        #expect(scratch.storeSnapshot() == before)
    }

    @Test func senderDecliningTheExportLeavesTheStoreUnchanged() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        sender.write("yes\nno\n")
        let code = try #require(sender.transferCode())
        let received = try HandoffProcess.run(scratch.receiveArguments(code, ["--yes"]))
        let sent = sender.finish()
        #expect(sent.status == 67)
        #expect(received.status == 67)
        #expect(received.stderr.hasSuffix("The sending device rejected the transfer; nothing was imported. Start a new transfer if you want to try again.\n"))
        #expect(scratch.storeSnapshot() == [:])
    }

    @Test func interruptWhileWaitingCancels() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        _ = try #require(sender.transferCode())
        sender.interrupt()
        let sent = sender.finish()
        #expect(sent.status == 68)
        #expect(sent.stdout.contains("Cancelling the transfer (interrupted).\n"))
    }

    @Test func existingAccountIsNotReplacedWithoutReplace() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let credential = scratch.store.appendingPathComponent("\(Scratch.linkID).credential")
        let first = try HandoffProcess(scratch.sendArguments(["--yes"]))
        _ = try HandoffProcess.run(scratch.receiveArguments(try #require(first.transferCode()), ["--yes"]))
        #expect(first.finish().status == 0)
        try Data("previous".utf8).write(to: credential)
        let before = scratch.storeSnapshot()

        let second = try HandoffProcess(scratch.sendArguments(["--yes"]))
        let refused = try HandoffProcess.run(scratch.receiveArguments(try #require(second.transferCode()), ["--yes"]))
        let sent = second.finish()
        #expect(refused.status == 67)
        #expect(refused.stdout.contains("it is not replaced without --replace, so the import is declined before any password is sent.\n"))
        #expect(sent.status == 67)
        #expect(!sent.stdout.contains("Send the password"), "the password was never requested")
        #expect(scratch.storeSnapshot() == before)

        let third = try HandoffProcess(scratch.sendArguments(["--yes"]))
        let replaced = try HandoffProcess.run(scratch.receiveArguments(try #require(third.transferCode()), ["--yes", "--replace"]))
        #expect(third.finish().status == 0)
        #expect(replaced.status == 0)
        #expect(try Data(contentsOf: credential) == Data(HandoffProcess.testPassword.utf8))
    }

    @Test func expiredCodeIsRefusedByReceiveWithExitCode66() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try HandoffProcess.run(scratch.receiveArguments(try Scratch.expiredCode(), ["--yes"]))
        #expect(result.status == 66)
        #expect(result.stderr.hasPrefix("This transfer code expired 20 min "))
        #expect(!FileManager.default.fileExists(atPath: scratch.store.path))
    }

    @Test func nobodyListeningIsAFailureWithAnExplanation() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try HandoffProcess.run(scratch.receiveArguments(try Scratch.validCode().text, ["--yes"]))
        #expect(result.status == 70)
        #expect(result.stderr == "Nothing is listening at the address in the code; check that the sending device is still waiting, or start a new transfer.\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.store.path))
    }
}
