import AccountHandoff

/// Why a sender stopped advertising its typed code on the local network.
public enum AdvertisingStopped: Error, Hashable, Sendable {
    /// The sender withdrew the advertisement itself.
    case withdrawn
    /// Every name tried was taken on the network: the first code's and those of
    /// ``SenderAdvertising/maximumRedraws`` new codes (`collisions` in all).
    case namesTaken(collisions: Int)
    /// The DNS-SD daemon failed.
    case discoveryFailed(DiscoveryError)
}

extension AdvertisingStopped: TranslatedSentence {
    /// A whole sentence for people, with what to do next.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .withdrawn:
            sentenceCatalog.sentence("advertising.withdrawn", in: language)
        case .namesTaken(let collisions):
            sentenceCatalog.sentence("advertising.namesTaken", .number(collisions), in: language)
        case .discoveryFailed(let error):
            error.sentence(in: language)
        }
    }
}
