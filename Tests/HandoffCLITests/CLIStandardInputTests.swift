import Foundation
import Testing
import TestProcesses

/// Questions answered from a pipe or a file: the start says so and how to answer them at a
/// terminal instead; when the input ends before an answer, the ending says that nobody
/// answered (not that someone cancelled), and how to answer next time.
@Suite(.startsProcesses) struct CLIStandardInputTests {
    /// `echo PASSWORD | handoff send --password-stdin`: nothing is left on standard input to
    /// answer the code question once a receiving device joins.
    @Test func aPasswordPipedInLeavesNobodyToTypeTheCode() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let arguments = ["send", "--account", scratch.accountFile.path, "--password-stdin", "--no-qr", "--lifetime", "60", "--no-local-auth"]
        let sender = try HandoffProcess(arguments)
        sender.write(HandoffProcess.testPassword + "\n")
        sender.closeInput()
        let code = try #require(await sender.transferCode())
        let receiver = try HandoffProcess(scratch.receiveArguments())
        receiver.write(code + "\n")
        let (sent, received) = await TransferPair(sender: sender, receiver: receiver, code: code).finish()
        let advice = "To answer the questions yourself, give the password with --password-file FILE and run 'handoff send' on a terminal."
        #expect(sent.status == 68)
        #expect(sent.stderrAsPrinted.contains("\nWarning: standard input is not a terminal, so each question below takes the next line from it, and the transfer is cancelled if it ends first. \(advice)\n"))
        #expect(sent.stderr == "Standard input ended before anyone typed the code that the receiving device shows, so nobody answered and the transfer was cancelled. The password was not sent. \(advice)\n")
        #expect(!sent.all.contains("You cancelled"))
        #expect(received.status == 68)
        #expect(received.stderr == "The sending device cancelled the transfer. Nothing was imported.\n")
    }

    /// `handoff receive < code.txt`, as `help receive` suggests: the file ends after the code,
    /// so nobody answers the import question; the sending person, at a terminal, hears that
    /// the other device cancelled.
    @Test func aCodeFromAFileOnStandardInputLeavesNobodyToImport() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try TerminalProcess(scratch.sendArguments())
        try #require(await sender.waitForScreen(containing: "Transfer code: AH:"))
        let line = try #require(sender.screen.split(separator: "\n").first { $0.hasPrefix("Transfer code: ") })
        let receiver = try HandoffProcess(scratch.receiveArguments())
        receiver.write(String(line.dropFirst("Transfer code: ".count)) + "\n")
        receiver.closeInput()
        let shown = try #require(await receiver.shortCode())
        try #require(await sender.waitForScreen(containing: Asked.codeQuestion))
        sender.type(shown + "\n")
        let received = await receiver.finish()
        let sent = await TerminalPair.ending(of: sender, timeout: .seconds(20))
        let advice = "To answer the questions yourself, give the code with --code-file FILE and run 'handoff receive' on a terminal."
        #expect(received.status == 68)
        #expect(received.stderrAsPrinted.contains("Warning: standard input is not a terminal, so each question below takes the next line from it, and the transfer is cancelled if it ends first. \(advice)\n"))
        #expect(received.stderr == "Standard input ended before anyone answered whether to import the account, so nobody answered and the transfer was cancelled. Nothing was imported. \(advice)\n")
        #expect(!received.all.contains("You cancelled"))
        #expect(sent.status == 68)
        #expect(sent.screen.hasSuffix("\nThe receiving device cancelled the transfer. The password was not sent.\n"), "\(sent.screen)")
        #expect(!sent.screen.contains("not a terminal"))
        #expect(await scratch.storeSnapshot() == [:])
    }
}
