/// The DNS-SD names of a typed-mode sender: the service type, the domain and the instance
/// name that carries the nameplate.
public enum DiscoveryServiceNames {
    /// The service type every sender advertises and every receiver browses for.
    public static let serviceType = "_accounthandoff._tcp"
    /// The only domain: multicast DNS on the local network.
    public static let domain = "local"
    /// What every instance name starts with; the three digits of the nameplate follow.
    public static let instanceNamePrefix = "AccountHandoff "

    /// `AccountHandoff NNN`, the instance name a sender advertises for `nameplate`.
    public static func instanceName(for nameplate: DiscoveryNameplate) -> String {
        instanceNamePrefix + nameplate.digits
    }

    /// The nameplate of an instance name that is exactly `AccountHandoff ` and three ASCII
    /// digits, compared byte for byte.
    ///
    /// - Throws: ``DiscoveryIgnoreReason/instanceNameNotOurs`` for any other name (another
    ///   prefix, another case, a suffix a responder added after a collision, other digits).
    public static func nameplate(inInstanceName name: String) throws(DiscoveryIgnoreReason) -> DiscoveryNameplate {
        let bytes = Array(name.utf8)
        let prefix = Array(instanceNamePrefix.utf8)
        guard bytes.count == prefix.count + 3, bytes.starts(with: prefix),
              let nameplate = DiscoveryNameplate(asciiDigits: Array(bytes.suffix(3))) else { throw .instanceNameNotOurs }
        return nameplate
    }

    /// Whether a browser resolves the service called `name`: only a sender's instance name,
    /// and only `nameplate`'s when it looks for one. The decision counts nothing else, so a
    /// flood of other services costs a receiver no resolution (and no daemon objects).
    public static func isWorthResolving(_ name: String, lookingFor nameplate: DiscoveryNameplate?) -> Bool {
        guard let named = try? self.nameplate(inInstanceName: name) else { return false }
        return nameplate.map { $0 == named } ?? true
    }
}
