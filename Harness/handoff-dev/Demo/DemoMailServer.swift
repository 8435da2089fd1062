import HandoffCLI
import AccountHandoff
import AccountHandoffDovecot

/// The demo's mail server: a throwaway Dovecot on 127.0.0.1 with the demo account and its
/// random password, so the receiver really logs in over TLS before it keeps the account.
enum DemoMailServer {
    /// Starts it, or says in one sentence why it could not (the demo then goes on, and the
    /// receiver stores the account without validating it).
    static func start(password: SecretBytes, console: Console) -> ThrowawayDovecot? {
        do {
            let server = try ThrowawayDovecot.start(user: "demo", password: password)
            console.line("A local IMAP server (Dovecot, with a throwaway certificate authority) runs on \(server.host):\(server.tlsPort); the receiver logs in to it over TLS before it keeps the account.")
            return server
        } catch {
            console.line("No local IMAP server could be started (\(error.description)), so the receiver stores the account without logging in to a mail server.")
            return nil
        }
    }
}
