import Foundation
import Testing
import TestProcesses

/// The transfer code is a secret while the transfer is pending (Spec 8.3): it never travels
/// on a command line, where every local user can read it in `/proc/PID/cmdline`.
@Suite(.startsProcesses) struct CLICodeSecrecyTests {
    static func refusal(_ command: String) -> String {
        """
        A transfer code is not accepted on the command line: until the transfer ends it is a secret, and \
        other users of this computer can read command lines. Run 'handoff \(command)' and paste the code \
        when it asks, pipe it in ('handoff \(command) < code.txt'), or use --code-file FILE.

        """
    }

    @Test(arguments: [["receive"], ["receive", "--store", "STORE", "--"], ["inspect"], ["qr", "--svg", "SVG"], ["qr", "--", "-"]])
    func aCodeAsAnArgumentIsRefusedWithTheSafeForms(prefix: [String]) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (code, _) = try Scratch.validCode()
        let arguments = prefix.map { $0 == "STORE" ? scratch.store.path : $0 == "SVG" ? scratch.file("code.svg").path : $0 } + [code]
        let result = try await HandoffProcess.run(arguments, stdin: code + "\n")
        #expect(result.status == 64)
        #expect(result.stderr == Self.refusal(prefix[0]))
        #expect(result.stdout.isEmpty, "nothing was done with the code")
        #expect(!FileManager.default.fileExists(atPath: scratch.store.path))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("code.svg").path))
    }

    /// What an unprivileged local user polling `/proc` sees of a running transfer: neither the
    /// code in any argument or environment, nor the password; the sender's hint names the
    /// safe way to pass the code on.
    @Test func aRunningTransferShowsNoCodeInProc() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        let code = try #require(await sender.transferCode())
        let codeFile = scratch.file("code.txt")
        try Data((code + "\n").utf8).write(to: codeFile)
        let piped = try HandoffProcess(scratch.receiveArguments())
        piped.write(code + "\n")
        #expect(await piped.waitForOutput(containing: "Connected; waiting for the sending device") != nil)

        for pid in [sender.pid, piped.pid] {
            let commandLine = try #require(ProcessInspection.commandLine(of: pid))
            let environment = try #require(ProcessInspection.environment(of: pid))
            #expect(commandLine.contains("handoff"), "the inspection reads the right process")
            #expect(!commandLine.contains("AH:") && !commandLine.contains(String(code.dropFirst(3).prefix(40))), "\(commandLine)")
            #expect(!environment.contains("AH:"))
            #expect(!commandLine.contains(HandoffProcess.testPassword) && !environment.contains(HandoffProcess.testPassword))
        }
        let sendOutput = sender.stdoutSoFar
        #expect(sendOutput.contains("Or run 'handoff receive' in another terminal on this computer and paste this code when it asks (never put it on a command line).\n"))
        #expect(sendOutput.components(separatedBy: code).count == 2, "the code is printed once, on its own line")
        #expect(!sendOutput.contains("handoff receive AH:"))

        // The sender has the receiver's hello (it asks for the code) before the Ctrl-C: a
        // receiver gone before that leaves the sender waiting for another, until its expiry.
        #expect(await sender.waitForOutput(containing: "[code/no/cancel] ") != nil)
        piped.signal(SIGINT)  // Ctrl-C: the receiver waits for the sender, it asks nothing yet
        #expect(await piped.finish().status == 68)
        #expect(await sender.finish().status == 68)

        // The other safe form: the code in a file named on the command line.
        let second = try HandoffProcess(scratch.sendArguments())
        let secondCode = try #require(await second.transferCode())
        try Data((secondCode + "\n").utf8).write(to: codeFile)
        let fromFile = try HandoffProcess(scratch.receiveArguments(["--code-file", codeFile.path]))
        #expect(await fromFile.waitForOutput(containing: "Connected; waiting for the sending device") != nil)
        let commandLine = try #require(ProcessInspection.commandLine(of: fromFile.pid))
        #expect(commandLine.contains(codeFile.path) && !commandLine.contains("AH:"))
        #expect(await second.waitForOutput(containing: "[code/no/cancel] ") != nil)
        fromFile.signal(SIGINT)
        #expect(await fromFile.finish().status == 68)
        #expect(await second.finish().status == 68)
    }

    /// The demo hands the code to its receiving child on a pipe: neither child shows it.
    @Test func demoChildrenShowNoCodeInProc() async throws {
        let demo = try HandoffProcess(["demo", "--qr-style", "light"])
        #expect(await demo.waitForOutput(containing: "sender   │ Type the six-digit code that the receiving device shows") != nil)
        #expect(await demo.waitForOutput(containing: "receiver │ Type it on the sending device; waiting for its person to do so...") != nil)
        // The demo's own children: the two handoff processes (its mail server, Dovecot, aside).
        let children = ProcessInspection.children(of: demo.pid).filter {
            ProcessInspection.commandLine(of: $0).map { $0.contains(" send ") || $0.contains(" receive ") } ?? false
        }
        let commandLines = children.compactMap(ProcessInspection.commandLine(of:))
        #expect(commandLines.count == 2, "\(commandLines)")
        #expect(commandLines.contains { $0.contains(" send ") } && commandLines.contains { $0.contains(" receive ") }, "\(commandLines)")
        for (pid, commandLine) in zip(children, commandLines) {
            #expect(!commandLine.contains("AH:"), "\(commandLine)")
            #expect(!(ProcessInspection.environment(of: pid) ?? "AH:").contains("AH:"))
        }
        #expect(await demo.walkThroughDemo(), "the demo asked for the code, the import and two login passwords")
        let result = await demo.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  Credential file: mode 0600, identical to the password that was sent\n"))
    }
}
