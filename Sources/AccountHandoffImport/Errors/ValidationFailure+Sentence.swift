import AccountHandoff

extension ValidationFailure: LocalizedErrorSentence {
    /// Whole sentences for when no account is at hand (logs, an app's error alert): what went
    /// wrong with the mail server and what to do next. ``message(for:)`` names the server.
    public var description: String {
        switch self {
        case .authenticationFailed:
            "The mail server rejected the user name or password; check the password on the sending device, then start a new transfer."
        case .untrustedCertificate:
            "The mail server presented a certificate that this device does not trust; check the server name with your mail provider before trying again."
        case .hostNameMismatch:
            "The mail server's certificate is issued for another host name; check the server name in the account settings on the sending device."
        case .hostNotFound:
            "The mail server's host name could not be found; check the network connection and the server name, then try again."
        case .serverUnreachable:
            "The mail server could not be reached; check the network connection and the server port, then try again."
        case .timedOut:
            "The mail server did not answer in time; try again when the network is stable."
        case .tlsUnavailable:
            "The mail server does not offer an encrypted connection, so the password was not sent to it; ask your mail provider for the secure server settings."
        case .tlsHandshakeFailed:
            "An encrypted connection to the mail server could not be set up; check the port and security settings, then try again."
        case .notIMAPServer:
            "The mail server's address and port answered, but not as an IMAP mail server; check the IMAP server name and port on the sending device, then start a new transfer."
        case .unsupportedHost:
            "The mail server's name is not a valid host name; correct it on the sending device, then start a new transfer."
        case .unsupportedCredential:
            "The password contains a character that IMAP cannot send; change the password with your mail provider, then start a new transfer."
        case .otherFailure(let code):
            "Signing in to the mail server failed for a reason the mail-server check does not recognize (library code \(code)); try again later."
        case .cancelled:
            "Checking the account with the mail server was cancelled; start a new transfer to check it again."
        case .validatorNotReady(let reason):
            reason.isEmpty ? "The mail-server check cannot run as this device is set up; check its settings, then try again." : reason
        }
    }
}
