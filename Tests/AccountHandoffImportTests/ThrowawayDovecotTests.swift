import AccountHandoff
import AccountHandoffDovecot
import AccountHandoffIMAPValidation
import AccountHandoffImport
import Foundation
import Testing
import TestProcesses

/// The throwaway server the demo uses: one user, a loopback port, a CA file, a stop function.
@Suite(.startsProcesses) struct ThrowawayDovecotTests {
    @Test func startsWithOneUserAndStopsWithoutLeavingAnythingBehind() async throws {
        let password = try SecretBytes(utf8: "demo-password-\(UUID().uuidString)")
        let server = try ThrowawayDovecot.start(user: "demo", password: password)
        let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Demo", emailAddress: "demo@example.org",
                                          username: "demo", imapHost: server.host, imapPort: server.tlsPort, imapSecurity: .tls)
        let validator = IMAPValidator(configuration: IMAPValidatorConfiguration(trust: .certificateAuthorityFile(server.caFile)))
        #expect(server.host == "127.0.0.1")
        #expect(await validator.validate(account, credential: password) == .valid)
        // Only the salted hash of the password is on disk.
        let users = try Data(contentsOf: server.directory.appendingPathComponent("users"))
        #expect(String(decoding: users, as: UTF8.self).hasPrefix("demo:{SSHA256}"))
        #expect(!Array(users).contains(bytes: password.withUnsafeBytes { Array($0) }))

        server.stop()
        #expect(!FileManager.default.fileExists(atPath: server.directory.path))
        #expect(await validator.validate(account, credential: password) == .failed(.serverUnreachable))
        server.stop()  // idempotent
    }

    @Test func unusableUserNameIsATypedReason() {
        #expect(throws: DovecotUnavailable.setupFailed("the user name a:b is not allowed")) {
            try ThrowawayDovecot.start(user: "a:b", password: SecretBytes(utf8: "x"))
        }
    }

    @Test func everyReasonIsOneSentence() {
        let reasons: [DovecotUnavailable] = [
            .dovecotNotInstalled, .opensslNotInstalled, .certificateGenerationFailed(step: "CA ca", status: 1),
            .setupFailed("mkdtemp failed with errno 28"), .noFreePort, .launchFailed("posix_spawn failed"),
            .exited(status: 89, log: "Fatal: line 1\nmore"), .noGreeting(log: "log"),
        ]
        for reason in reasons {
            let sentence = reason.description
            #expect(sentence.hasPrefix("No local IMAP server could be started because "))
            #expect(sentence.hasSuffix("."))
            #expect(!sentence.contains("\n") && !sentence.dropLast().contains(". "), "\(sentence)")
        }
        #expect(DovecotUnavailable.exited(status: 89, log: "Fatal: x").logExcerpt == "Fatal: x")
    }
}
