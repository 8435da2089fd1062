import Foundation
import Testing
import TestProcesses

/// The local-authentication gate of the real binaries (Spec 8.7), through PAM under
/// pam_wrapper with a throwaway service and password: the receiver's person proves who they
/// are before it accepts, the sender's before the password leaves; a failure ends the
/// transfer on both devices with exit code 72 and nothing sent or kept.
@Suite(.startsProcesses) struct CLILocalGateTests {
    /// Both people type the right login password: the transfer completes, and neither
    /// password appears in any output.
    @Test func theRightLoginPasswordOnBothSidesCompletes() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.startGatedAndAccepted(scratch)
        try await pair.answerGate(of: pair.receiver)
        try await pair.answerGate(of: pair.sender)
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0 && received.status == 0, "\(sent.stderr)\(received.stderr)")
        // Each gate says why right before it asks (never after the question opened).
        #expect(received.stdout.contains("To receive the password and store it on this device, confirm that it is you.\nLogin password of "))
        #expect(sent.stdout.contains("The receiving device accepted the account.\nTo send the password of ada@example.org, confirm that it is you.\nLogin password of "))
        #expect(!sent.all.contains(CLIGate.password) && !received.all.contains(CLIGate.password))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    /// A wrong login password is asked again; the right one on the second try passes.
    @Test func aWrongLoginPasswordIsAskedAgain() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.startGatedAndAccepted(scratch)
        try await pair.answerGate(of: pair.receiver, with: "not-the-login-password")
        try await pair.answerGate(of: pair.receiver, count: 2)
        try await pair.answerGate(of: pair.sender)
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0 && received.status == 0, "\(sent.stderr)\(received.stderr)")
        #expect(!received.all.contains("not-the-login-password"))
        #expect(received.stderr.contains("That password was not right. Try again (2 tries left).\n"))
    }

    /// Three wrong login passwords at the sender: the password never leaves, and both devices
    /// say who could not be authenticated (exit 72); the receiver keeps nothing.
    @Test func threeWrongLoginPasswordsAtTheSenderEndTheTransferOnBothDevices() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.startGatedAndAccepted(scratch)
        try await pair.answerGate(of: pair.receiver)
        for attempt in 1...3 { try await pair.answerGate(of: pair.sender, with: "wrong-\(attempt)", count: attempt) }
        let (sent, received) = await pair.finish()
        #expect(sent.status == 72)
        #expect(received.status == 72)
        #expect(sent.stderr.hasSuffix("You could not be authenticated on this device, so the transfer was stopped; start a new transfer when you can authenticate. The password was not sent.\n"))
        #expect(received.stderr.hasSuffix("The person at the sending device could not be authenticated there, so the transfer was stopped and the password was not sent; ask the sending device for a new code if you want to try again. Nothing was imported.\n"))
        #expect(await scratch.storeSnapshot() == [:])
    }

    /// Ctrl-C at the receiver's login-password question cancels the transfer on both devices
    /// (exit 68); nothing is sent or kept.
    @Test func ctrlCAtTheLoginPasswordQuestionCancels() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.startGatedAndAccepted(scratch)
        #expect(await pair.receiver.waitForOutput(containing: Asked.loginPassword) != nil)
        pair.receiver.signal(SIGINT)
        let (sent, received) = await pair.finish()
        #expect(received.status == 68)
        #expect(sent.status == 68)
        #expect(received.stderr.hasSuffix("You cancelled the transfer. Nothing was imported.\n"))
        #expect(sent.stderr.hasSuffix("The receiving device cancelled the transfer. The password was not sent.\n"))
        #expect(await scratch.storeSnapshot() == [:])
    }

    /// `--no-local-auth` turns the gate off only with a warning that says what it costs.
    @Test func turningTheGateOffIsWarnedAbout() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0 && received.status == 0)
        #expect(sent.stderrAsPrinted.hasPrefix("Warning: --no-local-auth: nobody is asked to prove who they are before the password leaves this computer; anyone at this terminal could do it.\n"))
        #expect(received.stderrAsPrinted.hasPrefix("Warning: --no-local-auth: nobody is asked to prove who they are before the password is accepted and stored; anyone at this terminal could do it.\n"))
        #expect(!sent.all.contains(Asked.loginPassword) && !received.all.contains(Asked.loginPassword))
    }
}
