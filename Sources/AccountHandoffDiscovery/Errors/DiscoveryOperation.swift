/// What discovery was doing when the daemon failed, for its error's sentence.
public enum DiscoveryOperation: Hashable, Sendable {
    /// Connecting to the daemon.
    case connect
    /// Advertising this device's code.
    case advertise
    /// Looking for the other device's code.
    case browse
    /// Resolving a found service to its address and port.
    case resolve

    var words: String {
        switch self {
        case .connect: "connect to the DNS-SD daemon"
        case .advertise: "show this device's code on the local network"
        case .browse: "look for the sending device on the local network"
        case .resolve: "find the address of a device on the local network"
        }
    }
}
