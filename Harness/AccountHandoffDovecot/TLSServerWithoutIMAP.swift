import Foundation
import SpawnedChild

/// A server that speaks TLS but no IMAP, as a mail client meets one when an account names the
/// wrong port (a web server's 443, for instance): OpenSSL's `s_server` with a throwaway
/// Dovecot's certificate (so the TLS handshake and the certificate check succeed), which
/// answers its one client with an HTTP status line instead of an IMAP greeting and closes.
package final class TLSServerWithoutIMAP: @unchecked Sendable {
    // Safety of @unchecked Sendable: every property is immutable; SpawnedChild is thread-safe.
    /// The loopback port it accepts one connection on.
    package let port: UInt16
    private let process: SpawnedChild

    private init(port: UInt16, process: SpawnedChild) {
        self.port = port
        self.process = process
    }

    deinit { stop() }

    /// Starts the server with `dovecot`'s certificate and key, and waits until it listens.
    ///
    /// - Parameter firstLine: what it sends once the handshake is done, then it closes.
    /// - Throws: why it could not be started.
    package static func start(certificateOf dovecot: ThrowawayDovecot, firstLine: String = "HTTP/1.1 400 Bad Request\r\n",
                              startupTimeout: Duration = .seconds(10)) throws(DovecotUnavailable) -> TLSServerWithoutIMAP {
        guard let openssl = ExecutableSearch.find("openssl", preferred: ["/usr/bin/openssl", "/opt/homebrew/bin/openssl"]) else {
            throw .opensslNotInstalled
        }
        let name = "not-imap-\(UUID().uuidString.prefix(8))"
        let said = dovecot.directory.appendingPathComponent("\(name).in")
        let log = dovecot.directory.appendingPathComponent("\(name).log")
        do { try Data(firstLine.utf8).write(to: said) } catch { throw .setupFailed("writing \(said.lastPathComponent) failed") }
        for _ in 0..<3 {
            guard let port = LoopbackProbe.freePort() else { continue }
            // Standard input is the line to send; at its end `s_server` closes the connection
            // and exits (it says "ACCEPT" once it listens).
            let arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-naccept", "1",
                             "-cert", dovecot.directory.appendingPathComponent("server.crt").path,
                             "-key", dovecot.directory.appendingPathComponent("server.key").path]
            guard case .success(let process) = SpawnedChild.spawn(openssl, arguments, input: .file(said.path), output: .file(log.path)) else {
                throw .launchFailed("openssl s_server could not be started")
            }
            let deadline = ContinuousClock.now + startupTimeout
            while process.isRunning, ContinuousClock.now < deadline {
                if let text = try? String(contentsOf: log, encoding: .utf8), text.contains("ACCEPT") {
                    return TLSServerWithoutIMAP(port: port, process: process)
                }
                usleep(10_000)
            }
            process.send(SIGKILL)
        }
        throw .noFreePort
    }

    /// Stops the server. Idempotent.
    package func stop() {
        if process.isRunning { process.send(SIGKILL) }
    }
}
