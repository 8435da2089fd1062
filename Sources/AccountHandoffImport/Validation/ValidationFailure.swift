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

    /// Whole sentences for the person: what went wrong with which server, and what to do next.
    public func message(for account: AccountMetadata) -> String {
        let server = "\(account.imapHost):\(account.imapPort)"
        let nothingChanged = "The account was not imported and your existing accounts are unchanged."
        switch self {
        case .authenticationFailed:
            return "The mail server \(server) rejected the user name or password. \(nothingChanged) Check the password on the sending device, then start a new transfer."
        case .untrustedCertificate:
            return "The mail server \(server) presented a certificate that this device does not trust. \(nothingChanged) Check the server name with your mail provider before trying again."
        case .hostNameMismatch:
            return "The mail server's certificate is not valid for \(account.imapHost). \(nothingChanged) Check the server name in the account settings on the sending device."
        case .hostNotFound:
            return "The mail server \(account.imapHost) could not be found. \(nothingChanged) Check the network connection and the server name, then try again."
        case .serverUnreachable:
            return "The mail server \(server) could not be reached. \(nothingChanged) Check the network connection and the server port, then try again."
        case .timedOut:
            return "The mail server \(server) did not answer in time. \(nothingChanged) Try again when the network is stable."
        case .tlsUnavailable:
            return "The mail server \(server) does not offer an encrypted connection, so the password was not sent to it. \(nothingChanged) Ask your mail provider for the secure server settings."
        case .tlsHandshakeFailed:
            return "An encrypted connection to the mail server \(server) could not be set up. \(nothingChanged) Check the port and security settings, then try again."
        case .notIMAPServer:
            return "The server at \(server) answered, but not as an IMAP mail server (it may be a web, SMTP or POP3 server at that port). \(nothingChanged) Check the IMAP server name and port in the account settings on the sending device (IMAP usually uses port 993 with TLS, 143 with STARTTLS), then start a new transfer."
        case .unsupportedHost:
            return "The server name \(account.imapHost) is not a valid host name. \(nothingChanged) Correct the server name on the sending device, then start a new transfer."
        case .unsupportedCredential:
            return "The password contains a character that IMAP cannot send. \(nothingChanged) Change the password with your mail provider, then start a new transfer."
        case .otherFailure(let code):
            return "Signing in to the mail server \(server) failed for a reason the mail-server check does not recognize (library code \(code)). \(nothingChanged) Try again later."
        case .cancelled:
            return "Checking the account with the mail server was cancelled. \(nothingChanged)"
        case .validatorNotReady:
            return "\(description) \(nothingChanged)"
        }
    }
}
