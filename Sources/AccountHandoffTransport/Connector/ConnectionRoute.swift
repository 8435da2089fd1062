/// How a receiver's connection reaches the sender.
public enum ConnectionRoute: Hashable, Sendable, CustomStringConvertible {
    /// Straight to the sender's address.
    case direct(TCPRendezvous.Endpoint)
    /// Through the relay, at this address (Spec 11.7).
    case relay(TCPRendezvous.Relay, address: IPv4Address)

    /// `192.168.1.20:8080`, or `relay relay.example.org:4001 (203.0.113.5)`.
    public var description: String {
        switch self {
        case .direct(let endpoint): endpoint.description
        case .relay(let relay, let address): relay.host.name == address.description ? "relay \(relay)" : "relay \(relay) (\(address))"
        }
    }
}

/// What a receiver's connect is doing (Spec 11.8), for status lines: where it connects, when
/// it gives up on the direct address, and when it tries the relay again.
public enum ConnectionProgress: Hashable, Sendable, CustomStringConvertible {
    /// Connecting to the sender's own address.
    case connectingDirectly(TCPRendezvous.Endpoint)
    /// The code's direct address is not one this device connects to (Spec 11.8), so only the
    /// relay is tried.
    case directAddressSkipped(IPv4Address, DirectAddressPolicy.Refusal)
    /// The direct connection failed, so the relay is tried now.
    case directFailed(TCPRendezvous.Endpoint, TransportError)
    /// The direct connection was not admitted within the head start; the relay is tried too.
    case directSlow(TCPRendezvous.Endpoint, Duration)
    /// Connecting to the relay at this address; the relay pairs the connection once the
    /// sending device waits there too. Said for the first attempt, and again when the relay
    /// is reached after it could not be.
    case connectingThroughRelay(TCPRendezvous.Relay, address: IPv4Address)
    /// A relay attempt ended without reaching the sender (or the relay garbled a connection
    /// before the sender's first frame); another follows after the pause, until the pairing
    /// deadline. Said once for each new reason, not for every attempt.
    case relayRetrying(TCPRendezvous.Relay, TransportError)
    /// Connected and admitted.
    case connected(ConnectionRoute)

    /// One sentence.
    public var description: String {
        switch self {
        case .connectingDirectly(let endpoint):
            "Connecting directly to \(endpoint)..."
        case .directAddressSkipped(let address, let refusal):
            "Not connecting directly: \(refusal.sentence(for: address)) Using the relay only."
        case .directFailed(let endpoint, let error):
            "The direct connection to \(endpoint) failed: \(error.description)"
        case .directSlow(let endpoint, let headStart):
            "No answer directly from \(endpoint) within \(Self.seconds(headStart)); trying the relay too."
        case .connectingThroughRelay(let relay, let address):
            "Connecting through the \(ConnectionRoute.relay(relay, address: address)); waiting for it to pair this device with the sending device..."
        case .relayRetrying(let relay, let error):
            Self.retrying(relay, error)
        case .connected(let route):
            "Connected to the sending device \(Self.via(route))."
        }
    }

    /// Why the relay did not lead to the sending device, and what this device does meanwhile;
    /// only what the relay itself did, never a guess about the sending device (Spec 11.7).
    private static func retrying(_ relay: TCPRendezvous.Relay, _ error: TransportError) -> String {
        switch error {
        case .connectionRefused:
            "The relay \(relay) cannot be reached right now: nothing accepts connections at its address (it may be down or restarting). This device tries it again every second until the code runs out."
        case .networkUnreachable:
            "The relay \(relay) cannot be reached right now: this device has no route to its address (check this device's network). This device tries it again every second until the code runs out."
        case .relayHostNotFound(let host):
            "The relay \(relay) cannot be found right now: the name \(host) has no IPv4 address (check this device's network). This device tries again every second until the code runs out."
        case .timedOut:
            "The relay \(relay) did not lead to the sending device in time: the relay, or the device it paired this one with, was silent for several seconds. This device tries again every second with a new connection until the code runs out."
        case .relayClosed, .closedByPeer:
            "The relay \(relay) closed this device's connection before pairing it with the sending device (it may have restarted, or refused the request). This device tries again every second with a new connection until the code runs out."
        case .notAHandoffSender, .codeRenewed:
            "Through the relay \(relay), this device was paired with a program that is not the sending device of this code (another transfer through the same relay, or someone interfering). This device tries again every second with a new connection until the code runs out."
        case .garbledByRelay, .oversizedFrame, .emptyFrame:
            "The relay \(relay) changed the bytes it copied from the sending device, so that connection could not carry the transfer. This device tries again every second with a new connection until the code runs out."
        case .system, .addressUnavailable, .unsupportedRendezvous, .relayNotPaired, .directAddressRefused, .closedLocally,
             .notJoinedInTime, .evicted, .unspecifiedAddress:
            "The attempt through the relay \(relay) failed: \(error.description) This device tries again every second until the code runs out."
        }
    }

    private static func via(_ route: ConnectionRoute) -> String {
        switch route {
        case .direct(let endpoint): "directly at \(endpoint)"
        case .relay: "through the \(route)"
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        return fraction == 0 ? "\(whole) s" : String(describing: duration)
    }
}
