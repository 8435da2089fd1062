import AccountHandoff

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

    /// One clause for a status line, in English.
    public var description: String { sentence(in: .english) }

    /// One clause for a status line (it starts in lowercase, to follow a label).
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .waiting(let address): sentenceCatalog.sentence("relayStatus.waiting", .text(address.description), in: language)
        case .paired: sentenceCatalog.sentence("relayStatus.paired", in: language)
        case .unreachable: sentenceCatalog.sentence("relayStatus.unreachable", in: language)
        case .garbledConnection: sentenceCatalog.sentence("relayStatus.garbledConnection", in: language)
        case .idle: sentenceCatalog.sentence("relayStatus.idle", in: language)
        }
    }
}
