import AccountHandoff

/// Why an account could not be validated against its mail server. Every case is secret-free.
public enum ValidationFailure: Error, Hashable, Sendable {
    /// The server rejected the user name or password.
    case authenticationFailed
    /// The server's certificate does not chain to a trusted authority; the TLS library's
    /// verification code is reported (for OpenSSL an `X509_V_ERR_*` value).
    case untrustedCertificate(verificationCode: Int)
    /// The certificate is trusted but issued for another host name.
    case hostNameMismatch
    /// The host name could not be resolved.
    case hostNotFound
    /// Nothing accepted a connection (refused, unreachable network).
    case serverUnreachable
    /// The server did not answer in time.
    case timedOut
    /// The server offers no STARTTLS (or refused it), and plaintext was not allowed.
    case tlsUnavailable
    /// The TLS handshake failed for another reason (protocol version, cipher, reset).
    case tlsHandshakeFailed
    /// Something answered at the server's address and port, but not as an IMAP server: its
    /// first line was no IMAP greeting, or it closed the connection without one (a web,
    /// SMTP or POP3 server at that port).
    case notIMAPServer
    /// The host is neither a DNS name nor an IP address literal, so no URL is built from it.
    case unsupportedHost
    /// The credential contains a byte the IMAP login cannot carry (a NUL byte).
    case unsupportedCredential
    /// Another failure of the validator's library, with its code (for libcurl a `CURLcode`).
    case otherFailure(code: Int32)
    /// The validation task was cancelled.
    case cancelled
    /// The validator cannot run as configured (for example its certificate authority file is
    /// missing, unreadable or holds no certificate); `reason` is a whole sentence. Found before
    /// any password travels (``AccountValidator/checkReady()``).
    case validatorNotReady(reason: String)

    /// A stable identifier such as `authenticationFailed`.
    public var identifier: String {
        switch self {
        case .authenticationFailed: "authenticationFailed"
        case .untrustedCertificate: "untrustedCertificate"
        case .hostNameMismatch: "hostNameMismatch"
        case .hostNotFound: "hostNotFound"
        case .serverUnreachable: "serverUnreachable"
        case .timedOut: "timedOut"
        case .tlsUnavailable: "tlsUnavailable"
        case .tlsHandshakeFailed: "tlsHandshakeFailed"
        case .notIMAPServer: "notIMAPServer"
        case .unsupportedHost: "unsupportedHost"
        case .unsupportedCredential: "unsupportedCredential"
        case .otherFailure: "otherFailure"
        case .cancelled: "cancelled"
        case .validatorNotReady: "validatorNotReady"
        }
    }

    /// The sentence of a failure found before any account is known (``validatorNotReady(reason:)``).
    public var readinessSentence: String {
        description
    }

    /// Whole sentences for the person, in English: what went wrong with which server, and what to do next.
    public func message(for account: AccountMetadata) -> String { message(for: account, in: .english) }

    /// Whole sentences for the person: what went wrong with which server, and what to do next.
    /// - Parameters:
    ///   - account: The account that was checked (its server is named).
    ///   - language: The language to say it in.
    public func message(for account: AccountMetadata, in language: HandoffLanguage) -> String {
        let server = "\(account.imapHost):\(account.imapPort)"
        let nothingChanged = sentenceCatalog.sentence("validation.nothingChanged", in: language)
        switch self {
        case .authenticationFailed:
            return sentenceCatalog.sentence("validationMessage.authenticationFailed", .text(server), .text(nothingChanged), in: language)
        case .untrustedCertificate:
            return sentenceCatalog.sentence("validationMessage.untrustedCertificate", .text(server), .text(nothingChanged), in: language)
        case .hostNameMismatch:
            return sentenceCatalog.sentence("validationMessage.hostNameMismatch", .text(account.imapHost), .text(nothingChanged), in: language)
        case .hostNotFound:
            return sentenceCatalog.sentence("validationMessage.hostNotFound", .text(account.imapHost), .text(nothingChanged), in: language)
        case .serverUnreachable:
            return sentenceCatalog.sentence("validationMessage.serverUnreachable", .text(server), .text(nothingChanged), in: language)
        case .timedOut:
            return sentenceCatalog.sentence("validationMessage.timedOut", .text(server), .text(nothingChanged), in: language)
        case .tlsUnavailable:
            return sentenceCatalog.sentence("validationMessage.tlsUnavailable", .text(server), .text(nothingChanged), in: language)
        case .tlsHandshakeFailed:
            return sentenceCatalog.sentence("validationMessage.tlsHandshakeFailed", .text(server), .text(nothingChanged), in: language)
        case .notIMAPServer:
            return sentenceCatalog.sentence("validationMessage.notIMAPServer", .text(server), .text(nothingChanged), in: language)
        case .unsupportedHost:
            return sentenceCatalog.sentence("validationMessage.unsupportedHost", .text(account.imapHost), .text(nothingChanged), in: language)
        case .unsupportedCredential:
            return sentenceCatalog.sentence("validationMessage.unsupportedCredential", .text(nothingChanged), in: language)
        case .otherFailure(let code):
            return sentenceCatalog.sentence("validationMessage.otherFailure", .text(server), .number(code), .text(nothingChanged), in: language)
        case .cancelled:
            return sentenceCatalog.sentence("validationMessage.cancelled", .text(nothingChanged), in: language)
        case .validatorNotReady:
            return sentenceCatalog.sentence("validationMessage.validatorNotReady", .text(sentence(in: language)), .text(nothingChanged), in: language)
        }
    }
}
