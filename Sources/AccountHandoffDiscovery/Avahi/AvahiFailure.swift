#if canImport(CAvahi)
import CAvahi

extension DiscoveryError {
    /// The typed error for an Avahi error code met while doing `operation`.
    static func avahi(_ code: Int32, while operation: DiscoveryOperation) -> DiscoveryError {
        switch code {
        case Int32(AVAHI_ERR_NO_DAEMON): .daemonNotRunning
        case Int32(AVAHI_ERR_DISCONNECTED): .daemonStopped
        case Int32(AVAHI_ERR_ACCESS_DENIED), Int32(AVAHI_ERR_NOT_PERMITTED): .notPermitted
        case Int32(AVAHI_ERR_TOO_MANY_CLIENTS), Int32(AVAHI_ERR_TOO_MANY_OBJECTS), Int32(AVAHI_ERR_TOO_MANY_ENTRIES): .daemonBusy
        default: .failed(operation, avahi_strerror(code).map { .daemonSays(String(cString: $0)) } ?? .daemonCode(code))
        }
    }
}
#endif
