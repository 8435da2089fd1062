import AccountHandoff

/// Which direct addresses a receiver connects to (Spec 11.8): a code is read from a screen
/// anyone may have put in front of the camera, so by default only addresses of this machine and
/// of local networks are reached; never `0.0.0.0`, the broadcast address or a multicast address.
public struct DirectAddressPolicy: Hashable, Sendable {
    /// Why an address is refused.
    public enum Refusal: Hashable, Sendable {
        /// `0.0.0.0`, which names no machine.
        case unspecified
        /// `255.255.255.255`.
        case broadcast
        /// 224.0.0.0/4.
        case multicast
        /// Neither loopback nor a private, link-local or shared (carrier-grade NAT) address,
        /// and the person did not allow other addresses.
        case publicAddress

        /// A whole sentence for people, with what to do next.
        func sentence(for address: IPv4Address, in language: HandoffLanguage) -> String {
            switch self {
            case .unspecified: sentenceCatalog.sentence("directAddress.unspecified", in: language)
            case .broadcast: sentenceCatalog.sentence("directAddress.broadcast", .text(address.description), in: language)
            case .multicast: sentenceCatalog.sentence("directAddress.multicast", .text(address.description), in: language)
            case .publicAddress: sentenceCatalog.sentence("directAddress.publicAddress", .text(address.description), in: language)
            }
        }
    }

    /// Whether addresses beyond loopback and local networks are allowed (the person asked).
    public var allowsPublicAddresses: Bool

    /// A policy; public addresses only when `allowsPublicAddresses`.
    public init(allowsPublicAddresses: Bool = false) {
        self.allowsPublicAddresses = allowsPublicAddresses
    }

    /// Loopback and local networks only: the default.
    public static let localNetworks = DirectAddressPolicy()

    /// Checks `address`, before any connection is made.
    ///
    /// - Throws: ``TransportError/directAddressRefused(_:_:)``.
    public func check(_ address: IPv4Address) throws(TransportError) {
        if let refusal = refusal(of: address) { throw .directAddressRefused(address, refusal) }
    }

    /// Why `address` is refused, or `nil` when it may be connected to.
    public func refusal(of address: IPv4Address) -> Refusal? {
        if address.isUnspecified { return .unspecified }
        if address.isBroadcast { return .broadcast }
        if address.isMulticast { return .multicast }
        if address.isLoopback || address.isPrivate || address.isLinkLocal || address.isSharedAddressSpace { return nil }
        return allowsPublicAddresses ? nil : .publicAddress
    }
}
