import AccountHandoff

extension ValidationFailure: TranslatedSentence {
    /// Whole sentences for when no account is at hand (logs, an app's error alert): what went
    /// wrong with the mail server and what to do next. ``message(for:)`` names the server.
    /// - Parameter language: The language to say it in; a ``validatorNotReady(reason:)`` reason is shown as the validator wrote it.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .authenticationFailed:
            sentenceCatalog.sentence("validation.authenticationFailed", in: language)
        case .untrustedCertificate:
            sentenceCatalog.sentence("validation.untrustedCertificate", in: language)
        case .hostNameMismatch:
            sentenceCatalog.sentence("validation.hostNameMismatch", in: language)
        case .hostNotFound:
            sentenceCatalog.sentence("validation.hostNotFound", in: language)
        case .serverUnreachable:
            sentenceCatalog.sentence("validation.serverUnreachable", in: language)
        case .timedOut:
            sentenceCatalog.sentence("validation.timedOut", in: language)
        case .tlsUnavailable:
            sentenceCatalog.sentence("validation.tlsUnavailable", in: language)
        case .tlsHandshakeFailed:
            sentenceCatalog.sentence("validation.tlsHandshakeFailed", in: language)
        case .notIMAPServer:
            sentenceCatalog.sentence("validation.notIMAPServer", in: language)
        case .unsupportedHost:
            sentenceCatalog.sentence("validation.unsupportedHost", in: language)
        case .unsupportedCredential:
            sentenceCatalog.sentence("validation.unsupportedCredential", in: language)
        case .otherFailure(let code):
            sentenceCatalog.sentence("validation.otherFailure", .number(code), in: language)
        case .cancelled:
            sentenceCatalog.sentence("validation.cancelled", in: language)
        case .validatorNotReady(let reason):
            reason.isEmpty ? sentenceCatalog.sentence("validation.validatorNotReady", in: language) : reason
        }
    }
}
