import AccountHandoff

/// Why a service a receiver found is not a sender of this protocol version and is ignored.
/// No case carries the service's own strings: they come from anyone on the network.
public enum DiscoveryIgnoreReason: Error, Hashable, Sendable {
    /// The instance name is not exactly `AccountHandoff ` and three ASCII digits.
    case instanceNameNotOurs
    /// The service is in another domain than `local`.
    case otherDomain
    /// The TXT record's bytes end inside a string.
    case txtMalformed
    /// The TXT record has this many strings, not two.
    case txtEntryCount(Int)
    /// The TXT record's first string is not `v=` and digits.
    case versionEntryMissing
    /// The TXT record names another protocol version than 4.
    case otherVersion
    /// The TXT record's second string is not exactly `np=` and three ASCII digits.
    case nameplateEntryMalformed
    /// The TXT record's nameplate is not the one in the instance name.
    case nameplateMismatch
    /// The service resolved to an address that is not IPv4 (discovery is IPv4 only).
    case notIPv4
    /// The service's port is 0, which no listener has.
    case zeroPort
}

extension DiscoveryIgnoreReason: TranslatedSentence {
    /// A whole sentence for logs and diagnostics.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .instanceNameNotOurs: sentenceCatalog.sentence("ignored.instanceNameNotOurs", in: language)
        case .otherDomain: sentenceCatalog.sentence("ignored.otherDomain", in: language)
        case .txtMalformed: sentenceCatalog.sentence("ignored.txtMalformed", in: language)
        case .txtEntryCount(let count): sentenceCatalog.sentence("ignored.txtEntryCount", .number(count), in: language)
        case .versionEntryMissing: sentenceCatalog.sentence("ignored.versionEntryMissing", in: language)
        case .otherVersion: sentenceCatalog.sentence("ignored.otherVersion", in: language)
        case .nameplateEntryMalformed: sentenceCatalog.sentence("ignored.nameplateEntryMalformed", in: language)
        case .nameplateMismatch: sentenceCatalog.sentence("ignored.nameplateMismatch", in: language)
        case .notIPv4: sentenceCatalog.sentence("ignored.notIPv4", in: language)
        case .zeroPort: sentenceCatalog.sentence("ignored.zeroPort", in: language)
        }
    }
}
