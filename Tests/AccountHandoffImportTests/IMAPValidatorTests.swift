import AccountHandoff
import AccountHandoffDovecot
import AccountHandoffIMAPValidation
import AccountHandoffImport
import AccountHandoffTestSupport
import Foundation
import TestProcesses
import Testing

/// Validation against a real Dovecot over TLS: every failure the validator distinguishes.
@Suite struct IMAPValidatorTests {
    @Test func correctPasswordLogsInOverImplicitTLSAndLogsOut() async throws {
        let server = try SharedDovecot.server()
        let account = try ImportFixtures.account(server, username: SharedDovecot.user)
        let earlier = DovecotLog.loggedInSessions(of: server)
        let result = await ImportFixtures.validator(server).validate(account, credential: try ImportFixtures.rightPassword())
        #expect(result == .valid)
        // Every IMAP session Dovecot started for it ended with a LOGOUT, not a dropped connection.
        let sessions = try await DovecotLog.finishedSessions(of: server, startedAfter: earlier)
        #expect(!sessions.isEmpty)
        for (process, ending) in sessions { #expect(ending.contains("Logged out"), "imap process \(process): \(ending)") }
        #expect(!server.log().contains(SharedDovecot.password))
    }

    @Test func wrongPasswordIsAuthenticationFailed() async throws {
        let server = try SharedDovecot.server()
        let account = try ImportFixtures.account(server)
        let result = await ImportFixtures.validator(server).validate(account, credential: try ImportFixtures.wrongPassword())
        #expect(result == .failed(.authenticationFailed))
    }

    @Test func startTLSOnThePlainPortLogsIn() async throws {
        let server = try SharedDovecot.server()
        let account = try ImportFixtures.account(server, security: .startTLS)
        #expect(account.imapPort == server.startTLSPort)
        let result = await ImportFixtures.validator(server).validate(account, credential: try ImportFixtures.rightPassword())
        #expect(result == .valid)
    }

    @Test(arguments: [IMAPSecurity.tls, .startTLS])
    func certificateFromAnUntrustedAuthorityIsRefused(security: IMAPSecurity) async throws {
        let server = try SharedDovecot.server()
        let account = try ImportFixtures.account(server, host: ThrowawayDovecot.ExtraEndpoint.untrustedCertificate.address,
                                                 security: security)
        let result = await ImportFixtures.validator(server).validate(account, credential: try ImportFixtures.rightPassword())
        // 20: X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY.
        #expect(result == .failed(.untrustedCertificate(verificationCode: 20)))
    }

    @Test(arguments: [IMAPSecurity.tls, .startTLS])
    func certificateForAnotherHostNameIsRefused(security: IMAPSecurity) async throws {
        let server = try SharedDovecot.server()
        let account = try ImportFixtures.account(server, host: ThrowawayDovecot.ExtraEndpoint.wrongHostName.address, security: security)
        let result = await ImportFixtures.validator(server).validate(account, credential: try ImportFixtures.rightPassword())
        #expect(result == .failed(.hostNameMismatch))
    }

    @Test func systemTrustDoesNotTrustTheThrowawayAuthority() async throws {
        let server = try SharedDovecot.server()
        let account = try ImportFixtures.account(server)
        let result = await IMAPValidator().validate(account, credential: try ImportFixtures.rightPassword())
        guard case .failed(.untrustedCertificate) = result else {
            Issue.record("expected an untrusted certificate, got \(result)")
            return
        }
    }

    @Test func serverWithoutSTARTTLSGetsNoPasswordUnlessPlaintextIsAllowed() async throws {
        let server = try SharedDovecot.server()
        let account = try ImportFixtures.account(server, host: ThrowawayDovecot.ExtraEndpoint.withoutTLS.address, security: .startTLS)
        func plaintextLogins() -> Int { server.log().components(separatedBy: "lip=127.0.0.4, mpid=").count - 1 }
        let before = plaintextLogins()
        let refused = await ImportFixtures.validator(server).validate(account, credential: try ImportFixtures.rightPassword())
        #expect(refused == .failed(.tlsUnavailable))
        // The refused attempt never authenticated: Dovecot logged no login on this endpoint.
        #expect(plaintextLogins() == before)

        let allowed = await ImportFixtures.validator(server, plaintext: .allowWhenServerOffersNoTLS)
            .validate(account, credential: try ImportFixtures.rightPassword())
        #expect(allowed == .valid)
        // Dovecot may write its log line a moment after the login's answer.
        _ = await Patience.waitUntil { plaintextLogins() > before }
        #expect(plaintextLogins() == before + 1)
    }

    @Test func allowingPlaintextNeverDowngradesACertificateFailure() async throws {
        let server = try SharedDovecot.server()
        let account = try ImportFixtures.account(server, host: ThrowawayDovecot.ExtraEndpoint.untrustedCertificate.address,
                                                 security: .startTLS)
        let result = await ImportFixtures.validator(server, plaintext: .allowWhenServerOffersNoTLS)
            .validate(account, credential: try ImportFixtures.rightPassword())
        #expect(result == .failed(.untrustedCertificate(verificationCode: 20)))
    }

    @Test func portWithNothingListeningIsServerUnreachable() async throws {
        let server = try SharedDovecot.server()
        let closedPort = try #require(ClosedPort.find())
        let account = try ImportFixtures.account(server, port: closedPort)
        let result = await ImportFixtures.validator(server).validate(account, credential: try ImportFixtures.rightPassword())
        #expect(result == .failed(.serverUnreachable))
    }

    @Test func serverThatNeverGreetsTimesOut() async throws {
        let server = try SharedDovecot.server()
        let silent = try SilentListener()
        defer { silent.close() }
        let account = try ImportFixtures.account(server, port: silent.port)
        let result = await ImportFixtures.validator(server, totalTimeout: .milliseconds(300))
            .validate(account, credential: try ImportFixtures.rightPassword())
        #expect(result == .failed(.timedOut))
    }

    /// A host that would change the login URL cannot even be offered: the account-text rules
    /// refuse it (Spec 3.7, T7) before any validator sees it, so the validator's own host check
    /// is a second line that no offered account reaches.
    @Test(arguments: ["imap.example.org/evil", "user@imap.example.org", "imap.example.org:1", "a..b", "-leading.example", "[::1]", "host%25lo"])
    func hostThatWouldChangeTheURLIsRefusedBeforeAnyValidation(host: String) async throws {
        let server = try SharedDovecot.server()
        #expect(throws: HandoffError.malformed(.imapHost)) { try ImportFixtures.account(server, host: host) }
    }

    @Test func passwordWithANulByteIsRefusedBeforeConnecting() async throws {
        let server = try SharedDovecot.server()
        let account = try ImportFixtures.account(server)
        let password = try SecretBytes(copying: Array(SharedDovecot.password.utf8) + [0] + Array("tail".utf8))
        let result = await ImportFixtures.validator(server).validate(account, credential: password)
        #expect(result == .failed(.unsupportedCredential))
    }

    @Test func cancellingTheTaskAbortsTheLogin() async throws {
        // Cancelled once the login is under way: the server that never answers has its connection.
        let result = try await loginCancelled(once: "connected") { $0.hasConnection }
        #expect(result == .failed(.cancelled))
    }

    @Test func cancellingDuringASilentTLSHandshakeAbortsTheLogin() async throws {
        // The client hello arrived: the login waits in its TLS handshake for a server hello.
        let result = try await loginCancelled(once: "began its TLS handshake") { $0.hasReceivedBytes }
        #expect(result == .failed(.cancelled))
    }

    /// Starts an implicit-TLS login with a server that never answers, cancels its task once
    /// `underWay` holds, and returns how the login ended. The connect and total timeouts are
    /// the test's deadline: a login that missed the cancellation would end only there, as
    /// timed out.
    private func loginCancelled(once step: String, _ underWay: @escaping (SilentListener) -> Bool) async throws -> ValidationResult {
        let server = try SharedDovecot.server()
        let silent = try SilentListener()
        defer { silent.close() }
        let account = try ImportFixtures.account(server, port: silent.port, security: .tls)
        let validator = ImportFixtures.validator(server, connectTimeout: Patience.deadline, totalTimeout: Patience.deadline)
        let credential = try ImportFixtures.rightPassword()
        let task = Task { await validator.validate(account, credential: credential) }
        #expect(await Patience.waitUntil { underWay(silent) }, "the validator never \(step)")
        task.cancel()
        return await task.value
    }

    @Test func failureMessagesNameTheServerAndTheNextStepWithoutTheSecret() throws {
        let server = try SharedDovecot.server()
        let account = try ImportFixtures.account(server)
        let failures: [ValidationFailure] = [.authenticationFailed, .untrustedCertificate(verificationCode: 20), .hostNameMismatch,
                                             .hostNotFound, .serverUnreachable, .timedOut, .tlsUnavailable, .tlsHandshakeFailed, .notIMAPServer,
                                             .unsupportedHost, .unsupportedCredential, .otherFailure(code: 56), .cancelled]
        for failure in failures {
            let message = failure.message(for: account)
            #expect(message.contains("not imported"), "\(failure.identifier)")
            #expect(message.hasSuffix("."), "\(failure.identifier)")
            #expect(!message.contains(SharedDovecot.password))
        }
        #expect(ValidationFailure.authenticationFailed.message(for: account).contains("\(account.imapHost):\(account.imapPort)"))
    }
}
