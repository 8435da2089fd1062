extension LocalAuthenticationFailure: TranslatedSentence {
    /// Whole sentences for the person: what happened and what to do next. Never a secret;
    /// for ``unavailable(detail:)`` the adapter's secret-free detail is included as written.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .notRecognized:
            return sentenceCatalog.sentence("localAuthentication.notRecognized", in: language)
        case .lockedOut:
            return sentenceCatalog.sentence("localAuthentication.lockedOut", in: language)
        case .unavailable(let detail):
            if detail.isEmpty { return sentenceCatalog.sentence("localAuthentication.unavailable", in: language) }
            let cause = detail.hasSuffix(".") ? detail : detail + "."
            return sentenceCatalog.sentence("localAuthentication.unavailableBecause", .text(cause), in: language)
        }
    }
}
