import AccountHandoffTransport

/// What a receiver does with the services it collected for one nameplate.
public enum DiscoveryDecision: Hashable, Sendable {
    /// Exactly one address and port shows the nameplate, and the address rules allow it:
    /// connect there.
    case connect(address: IPv4Address, port: UInt16)
    /// No device on the network shows the nameplate.
    case notFound
    /// More than one address or port shows the nameplate (`endpoints` of them): refuse before
    /// any run, so no guess is given to whichever device answers.
    case ambiguous(endpoints: Int)
    /// Exactly one address shows the nameplate, but the address rules refuse it (Spec 11.8):
    /// no connection is made.
    case refused(address: IPv4Address, DirectAddressPolicy.Refusal)
}
