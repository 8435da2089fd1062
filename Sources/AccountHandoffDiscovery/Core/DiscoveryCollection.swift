import AccountHandoffTransport

/// The services a receiver collected while it browsed, and its decision over them. Sans-IO:
/// the browser's reports go in as they come, the decision comes out when the caller's
/// browsing time is over.
///
/// A service is a candidate for a nameplate when its instance name, domain, TXT record,
/// address family and port all name that nameplate (``DiscoveredService/advertisedNameplate()``);
/// the decision counts the distinct addresses and ports of the candidates, so one sender seen
/// on two interfaces of this device is one, and two devices showing the nameplate are two.
public struct DiscoveryCollection: Sendable {
    private var services: [DiscoveredServiceKey: DiscoveredService] = [:]

    /// An empty collection.
    public init() {}

    /// Records a resolved service (again: its newest resolution replaces the older one).
    public mutating func found(_ service: DiscoveredService) {
        services[service.key] = service
    }

    /// Forgets a service the browser saw leave.
    public mutating func removed(_ key: DiscoveredServiceKey) {
        services[key] = nil
    }

    /// The services present now, ordered by name and interface.
    public var present: [DiscoveredService] {
        services.values.sorted { ($0.instanceName, $0.interfaceIndex) < ($1.instanceName, $1.interfaceIndex) }
    }

    /// The services present now that are not senders of this version, each with why.
    public var ignored: [(service: DiscoveredService, reason: DiscoveryIgnoreReason)] {
        present.compactMap { service in
            do throws(DiscoveryIgnoreReason) {
                _ = try service.advertisedNameplate()
                return nil
            } catch {
                return (service, error)
            }
        }
    }

    /// The decision for `nameplate`: connect to its one address and port if `policy` allows
    /// it, or not found, or ambiguous, or refused.
    public func decision(for nameplate: DiscoveryNameplate, policy: DirectAddressPolicy = .localNetworks) -> DiscoveryDecision {
        var endpoints: Set<Endpoint> = []
        for service in services.values {
            guard (try? service.advertisedNameplate()) == nameplate, case .ipv4(let address) = service.address else { continue }
            endpoints.insert(Endpoint(address: address, port: service.port))
        }
        guard let only = endpoints.first else { return .notFound }
        guard endpoints.count == 1 else { return .ambiguous(endpoints: endpoints.count) }
        if let refusal = policy.refusal(of: only.address) { return .refused(address: only.address, refusal) }
        return .connect(address: only.address, port: only.port)
    }

    private struct Endpoint: Hashable {
        let address: IPv4Address
        let port: UInt16
    }
}
