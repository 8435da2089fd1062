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
    /// sending device waits there too.
    case connectingThroughRelay(TCPRendezvous.Relay, address: IPv4Address)
    /// The relay attempt ended without reaching the sender; another follows after the pause.
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
        case .relayRetrying(_, let error):
            "The relay attempt did not reach the sending device: \(error.description) Trying again."
        case .connected(let route):
            "Connected to the sending device \(Self.via(route))."
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
