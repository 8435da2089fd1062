/// What a sender's listener is doing at its relay (Spec 11.7), for a status line.
public enum RelayStatus: Hashable, Sendable, CustomStringConvertible {
    /// A connection waits at the relay, at this address, for the receiving device.
    case waiting(at: IPv4Address)
    /// The relay paired the waiting connection; it is being admitted like a direct one, and
    /// another connection will wait next while the session waits for a hello.
    case paired
    /// The relay could not be reached, or closed the waiting connection; the listener tries
    /// again after ``TransportConfiguration/relayRetryDelay``.
    case unreachable(TransportError)
    /// No connection waits: the session has its receiver (or no QR yet), or
    /// ``TransportConfiguration/maximumRelayedConnections`` paired connections are still open.
    case idle

    /// One sentence.
    public var description: String {
        switch self {
        case .waiting(let address): "waiting at the relay (\(address)) for the receiving device"
        case .paired: "the relay paired a connection; admitting it"
        case .unreachable(let error): "the relay is unreachable: \(error.description)"
        case .idle: "not waiting at the relay"
        }
    }
}
