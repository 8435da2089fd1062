/// Registers a typed-mode sender's service with the platform's DNS-SD daemon and reports
/// what the daemon says. `AvahiAdvertiser` (Linux) and `BonjourAdvertiser` (Apple platforms)
/// implement it; ``SenderAdvertisement`` drives one with ``SenderAdvertising``.
///
/// Every method returns at once: the daemon's work happens on the adapter's own thread or
/// queue, never on the caller's.
public protocol DNSSDAdvertiser: Sendable {
    /// The daemon's reports, in order; finishes after ``stop()`` or a failure.
    var events: AsyncStream<DNSSDAdvertiserEvent> { get }
    /// Registers `AccountHandoff NNN` for `nameplate` at `port`, with its TXT record,
    /// IPv4 only, in the `local` domain; replaces any earlier registration. Never renames the
    /// service on a collision: it reports ``DNSSDAdvertiserEvent/collision(_:)``.
    func register(_ nameplate: DiscoveryNameplate, port: UInt16)
    /// Removes the registered service (its goodbye goes out on the network).
    func unregister()
    /// Removes the service, disconnects from the daemon and finishes ``events``.
    func stop()
}

/// What the daemon said about a registration.
public enum DNSSDAdvertiserEvent: Hashable, Sendable {
    /// The service of this nameplate is on the network.
    case established(DiscoveryNameplate)
    /// The service name of this nameplate is taken on the network.
    case collision(DiscoveryNameplate)
    /// The daemon failed; the events finish after this one.
    case failed(DiscoveryError)
}
