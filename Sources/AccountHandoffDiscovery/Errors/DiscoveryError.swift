import AccountHandoff

/// Why discovery could not advertise or browse. The same cases on every platform (Avahi on
/// Linux, mDNSResponder on Apple platforms); each sentence names the platform's daemon and
/// what to do. Nothing secret is ever part of discovery: the nameplate is public.
public enum DiscoveryError: Error, Hashable, Sendable {
    /// The DNS-SD daemon is not running (on Linux: the Avahi daemon, or the system D-Bus
    /// through which it is reached; libavahi-client cannot tell the two apart).
    case daemonNotRunning
    /// The DNS-SD daemon stopped (or restarted) while this device advertised or browsed:
    /// what it advertised is gone, and what it browsed is incomplete.
    case daemonStopped
    /// The daemon refused the request: the message bus's policy (Linux) or the local-network
    /// permission (Apple platforms) does not allow this program to use it.
    case notPermitted
    /// The daemon serves too many programs or objects already.
    case daemonBusy
    /// Another failure: what was being done, and the daemon's own words for it (never a
    /// string from the network).
    case failed(DiscoveryOperation, daemonSays: String)
}

extension DiscoveryError: LocalizedErrorSentence {
    /// A whole sentence for people, with what to do next.
    public var description: String {
        switch self {
        case .daemonNotRunning:
            #if os(Linux)
            "The Avahi daemon, or the system message bus it answers on, is not running, so this device cannot use the local network's device discovery; install and start them (sudo apt-get install avahi-daemon, then sudo systemctl start dbus avahi-daemon), or use a relay."
            #else
            "The system's DNS-SD service (mDNSResponder) is not running, so this device cannot use the local network's device discovery; restart the device, or use a relay."
            #endif
        case .daemonStopped:
            #if os(Linux)
            "The Avahi daemon stopped while this device used the local network's device discovery; start it again (sudo systemctl start avahi-daemon) and start a new transfer, or use a relay."
            #else
            "The system's DNS-SD service stopped while this device used the local network's device discovery; start a new transfer, or use a relay."
            #endif
        case .notPermitted:
            #if os(Linux)
            "The Avahi daemon does not allow this program to use it (the system message bus's policy refused); ask the administrator to allow it, or use a relay."
            #else
            "This app may not use the local network; allow it under Settings, Privacy and Security, Local Network, or use a relay."
            #endif
        case .daemonBusy:
            "The local network's device discovery serves too many programs already; close some of them and try again, or use a relay."
        case .failed(let operation, let daemonSays):
            "This device could not \(operation.words) (the daemon says: \(daemonSays)); try again, or use a relay."
        }
    }
}
