import AccountHandoff
import Foundation

/// How ``IMAPValidator`` connects.
public struct IMAPValidatorConfiguration: Hashable, Sendable {
    /// Which certificate authorities the validator trusts.
    public enum Trust: Hashable, Sendable {
        /// The system's trust store (libcurl's default CA bundle).
        case system
        /// Only the authorities in this PEM file (for example a test's throwaway CA).
        case certificateAuthorityFile(URL)
    }

    /// What to do when a STARTTLS server offers no TLS.
    public enum PlaintextPolicy: Hashable, Sendable {
        /// Refuse: the password is never sent without TLS (``AccountHandoffImport/ValidationFailure/tlsUnavailable``).
        case refuse
        /// Log in without TLS when the server offers no STARTTLS. Only for an endpoint the
        /// person explicitly marked as plaintext; certificate failures are never downgraded.
        case allowWhenServerOffersNoTLS
    }

    /// Trusted authorities; the system's by default.
    public var trust: Trust
    /// Longest wait for the TCP and TLS connection.
    public var connectTimeout: Duration
    /// Longest wait for the whole login and logout.
    public var totalTimeout: Duration
    /// Plaintext handling; refused by default.
    public var plaintext: PlaintextPolicy
    /// The language of the validator's own sentences (why it is not ready).
    public var language: HandoffLanguage

    /// The defaults: system trust, 15 s to connect, 30 s in total, plaintext refused, the
    /// process's language (``AccountHandoff/HandoffLanguage/current``).
    public init(trust: Trust = .system, connectTimeout: Duration = .seconds(15), totalTimeout: Duration = .seconds(30),
                plaintext: PlaintextPolicy = .refuse, language: HandoffLanguage = .current) {
        self.trust = trust
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.plaintext = plaintext
        self.language = language
    }
}

extension Duration {
    /// Whole milliseconds, at least 1, for libcurl's `_MS` options.
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int(max(1, min(milliseconds, Int64(Int32.max))))
    }
}
