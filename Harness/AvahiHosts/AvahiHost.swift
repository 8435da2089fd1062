#if os(Linux)
/// One host of ``AvahiHosts``: a network namespace with its own links, its own D-Bus system
/// bus and its own Avahi daemon.
public struct AvahiHost: Sendable {
    /// The host's number, from 1.
    public let number: Int
    /// The network namespace (`ip netns`).
    public let namespace: String
    /// The host's IPv4 address on each segment it joins, in the order of its segments.
    public let addresses: [String]
    /// The host's network interfaces, one per segment, in the same order.
    public let interfaces: [String]
    /// The Avahi daemon's host name (`NAME.local`).
    public let hostName: String
    /// The host's system bus (`unix:path=...`).
    public let busAddress: String
    /// The host's folder (bus socket, configurations, the daemons' log).
    public let directory: String

    /// The host's first address.
    public var address: String { addresses[0] }

    /// The environment of a program in this host: a fixed PATH and the host's system bus.
    public var environment: [String: String] {
        ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": busAddress, "HOME": directory, "LC_ALL": "C.UTF-8"]
    }
}
#endif
