import AccountHandoffTransport

/// One service a browser found and resolved, as the daemon reported it; nothing in it is
/// trusted until ``DiscoveryCollection`` has checked it.
public struct DiscoveredService: Hashable, Sendable {
    /// The instance name (`AccountHandoff 427` for a sender).
    ///
    /// - Warning: anyone on the network chooses it: never show it unescaped (it may hold
    ///   terminal escapes or look-alike characters).
    public var instanceName: String
    /// The domain, `local` for multicast DNS.
    public var domain: String
    /// The index of this device's network interface it was found on.
    public var interfaceIndex: Int32
    /// The address it resolved to.
    public var address: DiscoveredAddress
    /// The port of its SRV record.
    public var port: UInt16
    /// The strings of its TXT record, in the record's order.
    public var txtEntries: [[UInt8]]

    /// A resolved service.
    public init(instanceName: String, domain: String, interfaceIndex: Int32, address: DiscoveredAddress, port: UInt16, txtEntries: [[UInt8]]) {
        self.instanceName = instanceName
        self.domain = domain
        self.interfaceIndex = interfaceIndex
        self.address = address
        self.port = port
        self.txtEntries = txtEntries
    }

    /// What names this service among those a browser reports: its name on one interface.
    public var key: DiscoveredServiceKey { DiscoveredServiceKey(instanceName: instanceName, interfaceIndex: interfaceIndex) }

    /// The nameplate this service advertises, when it is a sender of this version: its
    /// instance name, domain, TXT record, address family and port all check out.
    ///
    /// - Throws: the ``DiscoveryIgnoreReason`` that makes it not ours.
    public func advertisedNameplate() throws(DiscoveryIgnoreReason) -> DiscoveryNameplate {
        let named = try DiscoveryServiceNames.nameplate(inInstanceName: instanceName)
        guard domain == DiscoveryServiceNames.domain || domain == DiscoveryServiceNames.domain + "." else { throw .otherDomain }
        let recorded = try DiscoveryTXTRecord.nameplate(inEntries: txtEntries)
        guard recorded == named else { throw .nameplateMismatch }
        guard case .ipv4 = address else { throw .notIPv4 }
        guard port != 0 else { throw .zeroPort }
        return named
    }
}

/// A service's instance name on one of this device's interfaces: a browser reports each
/// interface a service is seen on apart, and removes them apart.
public struct DiscoveredServiceKey: Hashable, Sendable {
    /// The instance name.
    public var instanceName: String
    /// The index of this device's network interface.
    public var interfaceIndex: Int32

    /// The key of `instanceName` on interface `interfaceIndex`.
    public init(instanceName: String, interfaceIndex: Int32) {
        self.instanceName = instanceName
        self.interfaceIndex = interfaceIndex
    }
}

/// The address a service resolved to.
public enum DiscoveredAddress: Hashable, Sendable {
    /// An IPv4 address.
    case ipv4(IPv4Address)
    /// Any other address (IPv6): discovery does not use it.
    case other
}
