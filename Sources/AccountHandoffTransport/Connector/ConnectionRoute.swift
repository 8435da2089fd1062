import AccountHandoff

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

    /// One sentence, in English.
    public var description: String { sentence(in: .english) }

    /// One sentence for a status line.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .connectingDirectly(let endpoint):
            sentenceCatalog.sentence("progress.connectingDirectly", .text(endpoint.description), in: language)
        case .directAddressSkipped(let address, let refusal):
            sentenceCatalog.sentence("progress.directAddressSkipped", .text(refusal.sentence(for: address, in: language)), in: language)
        case .directFailed(let endpoint, let error):
            sentenceCatalog.sentence("progress.directFailed", .text(endpoint.description), .text(error.sentence(in: language)), in: language)
        case .directSlow(let endpoint, let headStart):
            sentenceCatalog.sentence("progress.directSlow", .text(endpoint.description), .text(Self.seconds(headStart)), in: language)
        case .connectingThroughRelay(let relay, let address):
            sentenceCatalog.sentence("progress.connectingThroughRelay", .text(Self.relayText(relay, address: address)), in: language)
        case .relayRetrying(let relay, let error):
            Self.retrying(relay, error, in: language)
        case .connected(.direct(let endpoint)):
            sentenceCatalog.sentence("progress.connected.direct", .text(endpoint.description), in: language)
        case .connected(.relay(let relay, let address)):
            sentenceCatalog.sentence("progress.connected.relay", .text(Self.relayText(relay, address: address)), in: language)
        }
    }

    /// Why the relay did not lead to the sending device, and what this device does meanwhile;
    /// only what the relay itself did, never a guess about the sending device (Spec 11.7).
    private static func retrying(_ relay: TCPRendezvous.Relay, _ error: TransportError, in language: HandoffLanguage) -> String {
        let name = SentenceArgument.text(relay.description)
        return switch error {
        case .connectionRefused:
            sentenceCatalog.sentence("progress.relay.refused", name, in: language)
        case .networkUnreachable:
            sentenceCatalog.sentence("progress.relay.unreachable", name, in: language)
        case .relayHostNotFound(let host):
            sentenceCatalog.sentence("progress.relay.hostNotFound", name, .text(host.description), in: language)
        case .timedOut:
            sentenceCatalog.sentence("progress.relay.silent", name, in: language)
        case .relayClosed, .closedByPeer:
            sentenceCatalog.sentence("progress.relay.closed", name, in: language)
        case .notAHandoffSender, .codeRenewed:
            sentenceCatalog.sentence("progress.relay.wrongPeer", name, in: language)
        case .garbledByRelay, .oversizedFrame, .emptyFrame:
            sentenceCatalog.sentence("progress.relay.garbled", name, in: language)
        case .system, .addressUnavailable, .unsupportedRendezvous, .relayNotPaired, .directAddressRefused, .closedLocally,
             .notJoinedInTime, .evicted, .unspecifiedAddress:
            sentenceCatalog.sentence("progress.relay.failed", name, .text(error.sentence(in: language)), in: language)
        }
    }

    /// `relay.example.org:4001`, with the address it resolved to when that differs from the name.
    private static func relayText(_ relay: TCPRendezvous.Relay, address: IPv4Address) -> String {
        relay.host.name == address.description ? relay.description : "\(relay) (\(address))"
    }

    private static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        return fraction == 0 ? "\(whole) s" : String(describing: duration)
    }
}
