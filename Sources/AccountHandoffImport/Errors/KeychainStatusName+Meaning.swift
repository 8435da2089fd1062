import AccountHandoff

extension KeychainStatusName {
    /// What a Security framework status means, as a lowercase clause for a sentence; the
    /// status name and number stay for support (``describe(_:)``).
    static func meaning(_ status: Int32, in language: HandoffLanguage) -> String {
        switch status {
        case -25299: sentenceCatalog.sentence("keychainStatus.duplicateItem", in: language)
        case -25300: sentenceCatalog.sentence("keychainStatus.itemNotFound", in: language)
        case -34018: sentenceCatalog.sentence("keychainStatus.missingEntitlement", in: language)
        case -25308: sentenceCatalog.sentence("keychainStatus.interactionNotAllowed", in: language)
        case -50: sentenceCatalog.sentence("keychainStatus.param", in: language)
        case -128: sentenceCatalog.sentence("keychainStatus.userCanceled", in: language)
        default: sentenceCatalog.sentence("keychainStatus.unnamed", in: language)
        }
    }
}
