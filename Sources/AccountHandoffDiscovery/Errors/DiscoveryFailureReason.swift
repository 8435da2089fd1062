/// Why the DNS-SD daemon, or this process on its way to it, failed, for
/// ``DiscoveryError/failed(_:_:)``. Never a string from the network.
public enum DiscoveryFailureReason: Hashable, Sendable {
    /// The daemon library's own words for its error code (Avahi's `avahi_strerror`), as the
    /// library gives them (in English).
    case daemonSays(String)
    /// The daemon's error code, where the daemon has no words for it (mDNSResponder's
    /// `DNSServiceErrorType`, or a code Avahi cannot name).
    case daemonCode(Int32)
    /// The system had no memory left for the request.
    case outOfMemory
    /// This process has no file descriptor left (for the loop that talks to the daemon).
    case noDescriptorLeft
}
