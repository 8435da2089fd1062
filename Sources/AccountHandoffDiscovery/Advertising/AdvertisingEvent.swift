/// What a sender's advertising is told: the daemon's reports, the new code the caller drew,
/// and the person's wish to stop.
public enum AdvertisingEvent: Hashable, Sendable {
    /// The daemon established the service for this nameplate (mDNS probing found it free).
    case established(DiscoveryNameplate)
    /// The daemon found this nameplate's service name taken (during probing, or later, when
    /// another device claimed it).
    case collision(DiscoveryNameplate)
    /// The caller drew the new code that ``AdvertisingAction/drawNewCode`` asked for; this is
    /// its nameplate.
    case codeDrawn(DiscoveryNameplate)
    /// The daemon failed; advertising cannot go on.
    case failed(DiscoveryError)
    /// The sender stops advertising (the transfer began, or the person stopped it).
    case withdraw
}

/// What a sender's advertising asks its caller to do, in order.
public enum AdvertisingAction: Hashable, Sendable {
    /// Register the service of this nameplate (replacing any earlier registration).
    case register(DiscoveryNameplate)
    /// Remove the registered service.
    case unregister
    /// Retire the code (its nameplate collided) and draw a new one (new nameplate and
    /// secret), then send ``AdvertisingEvent/codeDrawn(_:)`` with its nameplate.
    case drawNewCode
    /// The nameplate is established on the network: show its code.
    case showCode(DiscoveryNameplate)
    /// Advertising is over for good; the typed way is withdrawn, for this reason.
    case stop(AdvertisingStopped)
}
