#if canImport(Glibc)
import Glibc
#endif
import AccountHandoff
import AccountHandoffTransport
import Foundation
import Testing
import TestProcesses

/// Which address `send` listens on and advertises (Spec 8.3, stray or hostile local peers): loopback unless the person asks
/// for a LAN address explicitly; never the unspecified address.
@Suite(.startsProcesses) struct CLIAddressTests {
    @Test func theUnspecifiedAddressIsRefused() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(scratch.sendArguments(["--address", "0.0.0.0", "--lan"]))
        #expect(result.status == 64)
        #expect(result.stderr == "The address 0.0.0.0 stands for every address of this machine and a code cannot advertise it; choose one address, such as 127.0.0.1 for this machine only.\n")
        #expect(!result.stdout.contains("Transfer code"), "nothing listened")
    }

    @Test func aNonLoopbackAddressNeedsLan() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // An address of this machine that other devices can reach is used only with --lan;
        // nothing listens when it is refused.
        if let lan = try InterfaceAddress.all().first(where: { $0.isUp && !$0.address.isLoopback })?.address {
            let refused = try await HandoffProcess.run(scratch.sendArguments(["--address", lan.description]))
            #expect(refused.status == 64)
            #expect(refused.stderr == "The address \(lan) can be reached by other devices on the network; if the receiving device is on your LAN, add --lan (the QR will then advertise \(lan)), or leave out --address to stay on 127.0.0.1.\n")
            #expect(!refused.stdout.contains("Transfer code"))
        }
        // An address this machine does not have is refused, with or without --lan.
        for flags in [[], ["--lan"]] {
            let absent = try await HandoffProcess.run(scratch.sendArguments(["--address", "203.0.113.77"] + flags))
            #expect(absent.status == 64)
            #expect(absent.stderr.hasPrefix("The address 203.0.113.77 is not an address of this machine; choose one of 127.0.0.1"))
            #expect(!absent.stdout.contains("Transfer code"))
        }
        let lanAlone = try await HandoffProcess.run(scratch.sendArguments(["--lan"]))
        #expect(lanAlone.status == 64)
        #expect(lanAlone.stderr.hasPrefix("--lan needs --address with the LAN address of this machine that the receiving device can reach."))
    }

    /// Another loopback address is allowed, advertised as it is, and a transfer over it works.
    @Test func anotherLoopbackAddressIsAdvertisedAndUsed() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch, sender: ["--address", "127.0.0.2"])
        let rendezvous = try #require(try TCPRendezvous(token: SessionPayload(text: pair.code).rendezvous).direct)
        #expect(rendezvous.address == IPv4Address("127.0.0.2"))
        #expect(pair.sender.stdoutSoFar.contains("The code will advertise 127.0.0.2, which only this machine can reach. Waiting for the receiving device on port \(rendezvous.port)"))
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.status == 0, "\(received.stderr)")
        #expect(received.stdout.contains("from 127.0.0.2:\(rendezvous.port)"))
    }
}

/// `--password-file` on what is not a plain file: never a silent hang, and a
/// sentence of its own for each case.
@Suite(.startsProcesses) struct CLIPasswordFileTests {
    @Test func aNamedPipeSaysWhatItWaitsForAndCompletesWhenAWriterComes() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pipe = scratch.file("password.fifo")
        try #require(mkfifo(pipe.path, 0o600) == 0)
        let sender = try HandoffProcess(["send", "--account", scratch.accountFile.path, "--password-file", pipe.path, "--no-qr", "--lifetime", String(Scratch.longestLifetime), "--no-local-auth"])
        let waiting = await sender.waitForOutput(containing: "(Ctrl-C to stop)...\n", inErrors: true)
        #expect(waiting == "Waiting for another program to write the password into the named pipe \(pipe.path) (Ctrl-C to stop)...\n")
        // The sender holds the pipe open for reading and waits for a writer: a writer's
        // non-blocking open succeeds only then (ENXIO before). Nothing was written yet, so no
        // code may have come.
        var writing: Int32 = -1
        #expect(await Patience.waitUntil {
            writing = open(pipe.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            return writing >= 0
        }, "the sender never opened the named pipe")
        #expect(sender.isRunning && !sender.stdoutSoFar.contains("Transfer code"), "it went on without the password")

        let writer = FileHandle(fileDescriptor: writing, closeOnDealloc: false)
        try writer.write(contentsOf: Data((HandoffProcess.testPassword + "\n").utf8))
        try writer.close()
        let code = try #require(await sender.transferCode())
        let receiver = try HandoffProcess(scratch.receiveArguments())
        receiver.write(code + "\n")
        let pair = TransferPair(sender: sender, receiver: receiver, code: code)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.status == 0, "\(received.stderr)")
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    @Test func aDirectoryHasItsOwnSentence() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(["send", "--account", scratch.accountFile.path, "--password-file", scratch.directory.path])
        #expect(result.status == 65)
        #expect(result.stderr == "\(scratch.directory.path) is a directory; give the path of the file that holds the password.\n")
    }

    @Test func aPasswordFileOthersCanReadIsWarnedAbout() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        chmod(scratch.passwordFile.path, 0o644)
        let sender = try HandoffProcess(scratch.sendArguments())
        _ = try #require(await sender.transferCode())
        sender.signal(SIGINT)
        let result = await sender.finish()
        #expect(result.stderr.hasPrefix("Warning: the password file \(scratch.passwordFile.path) is readable by other users; restrict it with 'chmod 600 \(scratch.passwordFile.path)'.\n"))
    }

    /// A transfer code file others can read gets the same warning: another local user could
    /// join with the code first.
    @Test func aCodeFileOthersCanReadIsWarnedAbout() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch.file("code.txt")
        try Data((try Scratch.validCode().text + "\n").utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let result = try await HandoffProcess.run(["inspect", "--code-file", file.path])
        #expect(result.status == 0)
        #expect(result.stderr == "Warning: the transfer code file \(file.path) is readable by other users, who could use the code before you; restrict it with 'chmod 600 \(file.path)'.\n")

    }
}
