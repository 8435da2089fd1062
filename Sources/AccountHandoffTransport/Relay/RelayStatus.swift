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
    /// A connection the relay paired passed admission and then broke the framing before the
    /// session saw any frame of it: the relay changed the bytes it copied, or someone who saw
    /// the QR sent junk. It was closed; the listener goes on waiting.
    case garbledConnection
    /// No connection waits: the session has its receiver (or no QR yet), or
    /// ``TransportConfiguration/maximumRelayedConnections`` paired connections are still open.
    case idle

    /// One sentence.
    public var description: String {
        switch self {
        case .waiting(let address): "waiting at the relay (\(address)) for the receiving device"
        case .paired: "the relay paired a connection; admitting it"
        case .unreachable: "the relay cannot be reached, or it closed the waiting connection; trying again after a pause"
        case .garbledConnection: "a connection the relay paired broke the framing and was closed"
        case .idle: "not waiting at the relay"
        }
    }
}
