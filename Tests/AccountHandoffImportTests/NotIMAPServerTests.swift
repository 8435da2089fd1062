import AccountHandoff
import AccountHandoffDovecot
import AccountHandoffIMAPValidation
import AccountHandoffImport
import Foundation
import TestProcesses
import Testing

/// A server that completes the TLS handshake with a certificate this device trusts but is no
/// IMAP server (OpenSSL's `s_server` sending another protocol's first line, then closing): the
/// validator says so (`notIMAPServer`), never a library code.
@Suite(.startsProcesses) struct NotIMAPServerTests {
    @Test(arguments: ["HTTP/1.1 400 Bad Request\r\n", "220 smtp.example.org ESMTP ready\r\n", "+OK POP3 ready\r\n"])
    func aTLSServerThatSpeaksAnotherProtocolIsNoIMAPServer(firstLine: String) async throws {
        let server = try SharedDovecot.server()
        let other = try TLSServerWithoutIMAP.start(certificateOf: server, firstLine: firstLine)
        defer { other.stop() }
        let account = try ImportFixtures.account(server, port: other.port)
        let result = await ImportFixtures.validator(server).validate(account, credential: try ImportFixtures.rightPassword())
        #expect(result == .failed(.notIMAPServer))
        let message = ValidationFailure.notIMAPServer.message(for: account)
        #expect(message.hasPrefix("The server at \(server.host):\(other.port) answered, but not as an IMAP mail server"))
        #expect(!message.contains("code"))
    }
}
