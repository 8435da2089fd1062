import Foundation
import Testing
import TestProcesses

/// The password prompt on a real (pseudo-)terminal: echo is off while the
/// password is typed, and comes back on every way out, Ctrl-C and SIGTERM included.
@Suite(.startsProcesses) struct CLITerminalTests {
    /// Ctrl-C delivers SIGINT to the foreground process; `kill` does the same here.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalAtThePasswordPromptLeavesEchoOn(signal: Int32) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let terminal = try TerminalProcess(["send", "--account", scratch.accountFile.path, "--password-stdin", "--no-qr", "--lifetime", String(Scratch.longestLifetime)])
        #expect(terminal.echoes, "a fresh terminal echoes")
        #expect(await terminal.waitForScreen(containing: "Mail password of ada@example.org, the one to send (not shown): "))
        #expect(await terminal.waitUntil(timeout: HandoffProcess.patience) { !terminal.echoes }, "echo stays on while the password is asked for")
        terminal.signal(signal)
        let ended = await terminal.finish()
        if signal == SIGINT {
            // Ctrl-C before a session is a cancel like any other (exit 68), said in a sentence.
            #expect(ended.status == 68 && !ended.killedBySignal, "\(ended)")
            #expect(terminal.screen.contains("Cancelled (Ctrl-C) before any transfer started: nothing was sent or stored."))
        } else {
            #expect(ended.killedBySignal && ended.status == signal, "the process did not end by the signal: \(ended)")
        }
        #expect(terminal.echoes, "the terminal was left with echo off")
    }

    @Test func aPasswordTypedOnATerminalIsNotEchoedAndEchoComesBack() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let terminal = try TerminalProcess(["send", "--account", scratch.accountFile.path, "--password-stdin", "--no-qr", "--lifetime", String(Scratch.longestLifetime)])
        #expect(await terminal.waitForScreen(containing: "Mail password of ada@example.org, the one to send (not shown): "))
        #expect(await terminal.waitUntil(timeout: HandoffProcess.patience) { !terminal.echoes })
        terminal.type(HandoffProcess.testPassword + "\n")
        #expect(await terminal.waitForScreen(containing: "Transfer code: AH:"))
        #expect(terminal.echoes, "echo is back once the password was read")
        terminal.signal(SIGINT)
        let ended = await terminal.finish()
        #expect(ended.status == 68 && !ended.killedBySignal, "Ctrl-C while waiting cancels: \(ended)")
        #expect(terminal.screen.contains("Cancelling the transfer (interrupted)."))
        #expect(terminal.echoes)
        #expect(!terminal.screen.contains(HandoffProcess.testPassword), "the typed password was echoed")
    }
}
