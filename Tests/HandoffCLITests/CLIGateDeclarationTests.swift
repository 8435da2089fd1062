import Foundation
import Testing
import TestProcesses

/// Each device tells the other whether its person is asked to prove who they are (Spec 3.4
/// `senderGate`, 3.6 `receiverGate`, 8.7), with the real binaries: one side runs
/// `--no-local-auth`, the other runs its gate (PAM under pam_wrapper, ``CLIGate``), and the
/// gated side's screen says what the other declared before its own person commits.
@Suite(.startsProcesses) struct CLIGateDeclarationTests {
    static let receiverSkipped = "The receiving device did not ask its person to prove who they are.\n"
    static let senderSkips = "The sending device will not ask its person to prove who they are before the password leaves.\n"

    /// The receiver runs `--no-local-auth`: the sending screen says so before its own gate
    /// asks for the login password (and so before the password is read). The sentence and the
    /// question come from one task, so their order is the same in every run.
    @Test func aReceiverWithoutItsGateIsNamedOnTheSendingScreen() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch, receiver: ["--no-local-auth"], gate: try CLIGate())
        try await pair.senderTypesTheReceiversCode()
        try await pair.receiverAccepts()
        try #require(await pair.sender.waitForOutput(containing: Asked.loginPassword) != nil, "\(pair.sender.stdoutSoFar)")
        let shown = pair.sender.stdoutSoFar
        let sentence = try #require(shown.range(of: Self.receiverSkipped), "\(shown)")
        let question = try #require(shown.range(of: Asked.loginPassword))
        #expect(sentence.upperBound <= question.lowerBound)
        try await pair.answerGate(of: pair.sender)
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0 && received.status == 0, "\(sent.stderr)\(received.stderr)")
        #expect(sent.stdout.components(separatedBy: Self.receiverSkipped).count == 2)
        // The sender asked its person: the receiving screen has nothing to warn about.
        #expect(!received.all.contains(Self.senderSkips))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    /// The sender runs `--no-local-auth`: the receiving screen says so with the offered
    /// account, before it asks whether to import it.
    @Test func aSenderWithoutItsGateIsNamedWithTheOfferedAccount() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch, sender: ["--no-local-auth"], gate: try CLIGate())
        try await pair.senderTypesTheReceiversCode()
        try #require(await pair.receiver.waitForOutput(containing: Asked.importQuestion) != nil, "\(pair.receiver.stdoutSoFar)")
        let shown = pair.receiver.stdoutSoFar
        let sentence = try #require(shown.range(of: Self.senderSkips), "\(shown)")
        let question = try #require(shown.range(of: Asked.importQuestion))
        #expect(sentence.upperBound <= question.lowerBound)
        #expect(shown.contains("offers this account:\n"))
        pair.receiver.write("yes\n")
        try await pair.answerGate(of: pair.receiver)
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0 && received.status == 0, "\(sent.stderr)\(received.stderr)")
        #expect(!sent.all.contains(Self.receiverSkipped))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }
}
