/// Browses for typed-mode senders (`_accounthandoff._tcp` in `local`) with the platform's
/// DNS-SD daemon and resolves each found service to its IPv4 address, port and TXT record.
/// `AvahiBrowser` (Linux) and `BonjourBrowser` (Apple platforms) implement it;
/// ``ReceiverDiscovery`` collects its reports into a ``DiscoveryCollection``. They resolve and
/// report only services whose names are worth it
/// (``DiscoveryServiceNames/isWorthResolving(_:lookingFor:)``).
///
/// Every method returns at once: the daemon's work happens on the adapter's own thread or
/// queue, never on the caller's.
public protocol DNSSDBrowser: Sendable {
    /// The daemon's reports, in order; finishes after ``stop()`` or a failure.
    var events: AsyncStream<DNSSDBrowserEvent> { get }
    /// Stops browsing, disconnects from the daemon and finishes ``events``.
    func stop()
}

/// What the daemon reported while browsing.
public enum DNSSDBrowserEvent: Hashable, Sendable {
    /// A service was found and resolved (unchecked: see ``DiscoveryCollection``).
    case found(DiscoveredService)
    /// A service left the network (its goodbye arrived, or its records expired).
    case removed(DiscoveredServiceKey)
    /// The daemon failed; the events finish after this one.
    case failed(DiscoveryError)
}
