import AccountHandoff
import AccountHandoffDovecot
import Foundation

// The example in the doc comment of ThrowawayDovecot (see SessionDriverExamples.swift).

// example: Harness/AccountHandoffDovecot/ThrowawayDovecot.swift#1
func throwawayDovecotExample(password: SecretBytes) throws -> URL {
    let server = try ThrowawayDovecot.start(user: "demo", password: password)
    defer { server.stop() }
    // connect to server.host:server.tlsPort (implicit TLS) or server.startTLSPort (STARTTLS),
    // trusting only server.caFile
    return server.caFile
}
