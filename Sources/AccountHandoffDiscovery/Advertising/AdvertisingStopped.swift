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

extension AdvertisingStopped: LocalizedErrorSentence {
    /// A whole sentence for people, with what to do next.
    public var description: String {
        switch self {
        case .withdrawn:
            "This device no longer shows its typed code on the local network."
        case .namesTaken(let collisions):
            "Other devices on this network already showed each of the \(collisions) codes this device drew, so the typed code is withdrawn; scan the QR code instead, or use a relay."
        case .discoveryFailed(let error):
            error.description
        }
    }
}
