/// Why a throwaway Dovecot could not be started. Each ``description`` is one sentence.
public enum DovecotUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// No `dovecot` binary was found (Debian: `apt-get install dovecot-imapd`).
    case dovecotNotInstalled
    /// No `openssl` command was found to make the throwaway certificates.
    case opensslNotInstalled
    /// An `openssl` step failed with this exit status.
    case certificateGenerationFailed(step: String, status: Int32)
    /// A preparation step failed (temporary directory, users, files).
    case setupFailed(String)
    /// No free loopback port was found.
    case noFreePort
    /// Dovecot could not be launched.
    case launchFailed(String)
    /// Dovecot exited during startup; its log ends with `log`.
    case exited(status: Int32, log: String)
    /// Dovecot did not greet on its port within the startup timeout; its log ends with `log`.
    case noGreeting(log: String)

    /// One sentence saying what is missing or failed.
    public var description: String {
        switch self {
        case .dovecotNotInstalled:
            "No local IMAP server could be started because Dovecot is not installed (install dovecot-imapd)."
        case .opensslNotInstalled:
            "No local IMAP server could be started because the openssl command is not installed."
        case .certificateGenerationFailed(let step, let status):
            "No local IMAP server could be started because creating its test certificate failed at \(step) (exit status \(status))."
        case .setupFailed(let detail):
            "No local IMAP server could be started because its setup failed: \(detail)."
        case .noFreePort:
            "No local IMAP server could be started because no free loopback port was found."
        case .launchFailed(let detail):
            "No local IMAP server could be started because Dovecot could not be launched: \(detail)."
        case .exited(let status, _):
            "No local IMAP server could be started because Dovecot exited during startup with status \(status)."
        case .noGreeting:
            "No local IMAP server could be started because Dovecot did not answer on its port in time."
        }
    }

    /// The end of Dovecot's log, when the failure has one (for test failure messages).
    public var logExcerpt: String? {
        switch self {
        case .exited(_, let log), .noGreeting(let log): log
        default: nil
        }
    }
}
