import AccountHandoff

/// Where a sending device tells receiving devices that it shows a typed code (Spec 11.10):
/// on the local network, a DNS-SD service for the nameplate. `AccountHandoffDiscovery`'s
/// `DNSSDTypedAnnouncer` is the one for Avahi and Bonjour; a ``FrameListener`` with a typed
/// way calls it as its session serves typed codes.
///
/// Every method returns at once: the work happens on the announcer's own thread.
public protocol TypedWayAnnouncer: AnyObject, Sendable {
    /// Announces `nameplate` at `port` from now on, instead of any earlier one. When the
    /// network's name of `nameplate` turns out to be taken (another device announces it),
    /// the announcer stops announcing it and calls `nameTaken` with it, from any thread.
    func announce(_ nameplate: TypedCode.Nameplate, port: UInt16, nameTaken: @escaping @Sendable (TypedCode.Nameplate) -> Void)
    /// Stops announcing (the typed way is withdrawn, the session paired, or it ended).
    func withdraw()
}
