import AccountHandoff
import AccountHandoffDovecot
import Foundation
import Testing
import TestProcesses

/// `handoff receive` logs in to the account's mail server over TLS before it keeps the
/// account (Spec 6, action `deliverAccount`): a real Dovecot on 127.0.0.1 with a throwaway certificate authority.
@Suite(.startsProcesses) struct CLIValidationTests {
    /// A Dovecot whose one user has `HandoffProcess.testPassword`, and a scratch whose account
    /// points at it.
    private func dovecotScratch() throws -> (ThrowawayDovecot, Scratch) {
        let server = try ThrowawayDovecot.start(user: "ada", password: try SecretBytes(utf8: HandoffProcess.testPassword))
        let account = """
            {"accountLinkID": "\(Scratch.linkID)", "displayName": "Ada Lovelace", "emailAddress": "ada@example.org",
             "username": "ada", "imapHost": "\(server.host)", "imapPort": \(server.tlsPort), "imapSecurity": "tls"}
            """
        return (server, try Scratch(account: account))
    }

    @Test func theRightPasswordIsImportedAfterATLSLogin() async throws {
        let (server, scratch) = try dovecotScratch()
        defer { server.stop(); scratch.remove() }
        let pair = try await TransferPair.start(scratch, receiver: ["--ca-file", server.caFile.path], validated: true)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.stdout.contains("The account ada@example.org was imported. The mail server accepted the password, so you can use it now.\n"))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    /// The server refuses the password: nothing is kept, the stored account stays as it was,
    /// and both sides say the import failed validation (exit 70).
    @Test func aWrongPasswordKeepsTheOldAccountAndLeavesNothingStaged() async throws {
        let (server, scratch) = try dovecotScratch()
        defer { server.stop(); scratch.remove() }
        let first = try await TransferPair.start(scratch, receiver: ["--ca-file", server.caFile.path], validated: true)
        try await first.confirmByTypingCodes()
        #expect(await first.finish().received.status == 0)
        let before = await scratch.storeSnapshot()
        try Data("not-the-password\n".utf8).write(to: scratch.passwordFile)

        let second = try await TransferPair.start(scratch, receiver: ["--ca-file", server.caFile.path, "--on-conflict", "replace"],
                                                  validated: true)
        try await second.confirmByTypingCodes()
        let (sent, received) = await second.finish()
        #expect(received.status == 70)
        #expect(sent.status == 70)
        #expect(received.stderr.contains("The mail server \(server.host):\(server.tlsPort) rejected the user name or password. The account was not imported and your existing accounts are unchanged."))
        #expect(sent.stderr.hasSuffix(Self.notCheckedForSender))
        #expect(await scratch.storeSnapshot() == before, "the old account and its password are intact")
        #expect(try await CLIKeyring.stagedCredentials(in: scratch.store).isEmpty, "no staged leftovers")
    }

    /// A server whose certificate this device does not trust (no --ca-file): not imported.
    @Test func anUntrustedCertificateIsNotImported() async throws {
        let (server, scratch) = try dovecotScratch()
        defer { server.stop(); scratch.remove() }
        let pair = try await TransferPair.start(scratch, validated: true)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(received.status == 70)
        #expect(sent.status == 70)
        #expect(received.stderr.hasSuffix("The mail server \(server.host):\(server.tlsPort) presented a certificate that this device does not trust. The account was not imported and your existing accounts are unchanged. Check the server name with your mail provider before trying again. If the server's certificate comes from an authority of its own (a company's or a test server's), run 'handoff receive' with --ca-file FILE naming that authority's certificate, and ask the sending device for a new code.\n"), "\(received.stderr)")
        #expect(sent.stderr.hasSuffix(Self.notCheckedForSender), "no login was tried, so the password is not blamed")
        #expect(await scratch.storeSnapshot().isEmpty)
    }

    /// The receipt carries only "validation failed" (Spec 3.6): the sender says the check
    /// failed and where to read why, never that the password was refused.
    static let notCheckedForSender = "The receiving device could not check the account with its mail server, so it did not keep it; its screen says what failed (the server not found or not reachable, a certificate it does not trust, or a refused login). Fix that, then start a new transfer.\n"

    /// A mail server that cannot be reached (nothing listens at its port): the receiver names
    /// the server and the port; the sender does not blame the password.
    @Test func anUnreachableServerIsNamedAndThePasswordIsNotBlamed() async throws {
        let account = """
            {"accountLinkID": "\(Scratch.linkID)", "displayName": "Ada Lovelace", "emailAddress": "ada@example.org",
             "username": "ada", "imapHost": "127.0.0.1", "imapPort": 9, "imapSecurity": "tls"}
            """
        let scratch = try Scratch(account: account)
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch, validated: true)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(received.status == 70)
        #expect(sent.status == 70)
        #expect(received.stderr.hasSuffix("The mail server 127.0.0.1:9 could not be reached. The account was not imported and your existing accounts are unchanged. Check the network connection and the server port, then try again.\n"), "\(received.stderr)")
        #expect(sent.stderr.hasSuffix(Self.notCheckedForSender))
        #expect(!sent.all.contains("password and") && !sent.all.contains("settings and password"))
        #expect(await scratch.storeSnapshot().isEmpty)
    }
}
