import AccountHandoff
import Foundation

/// Why the transport could not carry a frame. Every case maps to the core's
/// ``AccountHandoff/HandoffError`` through ``handoffError``, which is what a session sees.
public enum TransportError: Error, Hashable, Sendable {
    /// The peer closed the connection.
    case closedByPeer
    /// Nothing (or only part of a frame) arrived in time, or a write or a connect could not
    /// finish in time.
    case timedOut
    /// Nobody accepted the connection at the rendezvous address.
    case connectionRefused
    /// This device has no route to the address (another network, or a network that keeps
    /// its devices apart): the connect failed at once.
    case networkUnreachable
    /// The peer announced a frame larger than ``AccountHandoff/Frame/maximumByteCount``.
    case oversizedFrame(Int)
    /// The peer announced an empty frame, which the framing does not allow.
    case emptyFrame
    /// The rendezvous token cannot be read (Spec 11.1, 11.2).
    case unsupportedRendezvous(RendezvousTokenError)
    /// The relay closed the connection, or answered anything but `ok`, before it paired it
    /// with the other device (Spec 11.7); a device tries again after a pause.
    case relayClosed
    /// The relay paired this device, the admission passed, and then the bytes it copied from
    /// the other device broke the framing before the sender's first frame (Spec 11.7): the relay
    /// changed them (duplicated, dropped or altered bytes). The receiver connects through the
    /// relay again.
    case garbledByRelay
    /// The relay did not pair this device with the sending device before the code's end
    /// (its expiry plus the clock-skew tolerance, Spec 11.8).
    case relayNotPaired
    /// The relay's host name has no IPv4 address (DNS found none, or the lookup failed).
    case relayHostNotFound(RelayHost)
    /// The receiver will not connect to the code's direct address (Spec 11.8), so no
    /// connection was made.
    case directAddressRefused(IPv4Address, DirectAddressPolicy.Refusal)
    /// The listening address could not be bound (in use, or not an address of this machine).
    case addressUnavailable(errno: Int32)
    /// This side already closed the connection or the channel.
    case closedLocally
    /// The other end did not open with a handoff sender's admission challenge (Spec 11.4).
    case notAHandoffSender
    /// The sending device serves another QR than the one scanned (its admission challenge
    /// carries another session hint, Spec 11.4): the scanned code expired and was renewed, or
    /// the code's text was changed on its way (the two look the same from here). The session
    /// ends as `expired`.
    case codeRenewed
    /// The connection was admitted but the session did not bind it (no authenticated
    /// hello) within ``TransportConfiguration/bindTimeout``; the listener closed it.
    case notJoinedInTime
    /// The connection had not been bound to the session and was closed to make room for a
    /// newer connection when the listener was full.
    case evicted
    /// A listener cannot advertise `0.0.0.0` (every address of this machine) in a code.
    case unspecifiedAddress
    /// Another socket call failed.
    case system(operation: String, errno: Int32)

    /// The core's typed failure for this error: drops and timeouts are
    /// ``AccountHandoff/HandoffError/transportLost``; an oversized frame is
    /// ``AccountHandoff/HandoffError/oversizedFrame(_:)``; a token this transport cannot read is
    /// `malformed(.rendezvous)`; a renewed code is ``AccountHandoff/HandoffError/expired``.
    public var handoffError: HandoffError {
        switch self {
        case .oversizedFrame(let count): .oversizedFrame(count)
        case .unsupportedRendezvous: .malformed(.rendezvous)
        case .codeRenewed: .expired
        case .connectionRefused, .networkUnreachable, .directAddressRefused, .notAHandoffSender, .relayClosed, .relayNotPaired, .relayHostNotFound:
            .senderUnreachable
        case .closedByPeer, .timedOut, .emptyFrame, .addressUnavailable, .closedLocally, .notJoinedInTime, .evicted,
             .unspecifiedAddress, .garbledByRelay, .system:
            .transportLost
        }
    }
}

extension TransportError: TranslatedSentence {
    /// A whole sentence for people, with what to do next.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .closedByPeer: sentenceCatalog.sentence("transport.closedByPeer", in: language)
        case .timedOut: sentenceCatalog.sentence("transport.timedOut", in: language)
        case .connectionRefused: sentenceCatalog.sentence("transport.connectionRefused", in: language)
        case .networkUnreachable: sentenceCatalog.sentence("transport.networkUnreachable", in: language)
        case .oversizedFrame(let count):
            sentenceCatalog.sentence("transport.oversizedFrame", .number(count), .number(Frame.maximumByteCount), in: language)
        case .emptyFrame: sentenceCatalog.sentence("transport.emptyFrame", in: language)
        case .unsupportedRendezvous(let error): error.sentence(in: language)
        case .relayClosed: sentenceCatalog.sentence("transport.relayClosed", in: language)
        case .garbledByRelay: sentenceCatalog.sentence("transport.garbledByRelay", in: language)
        case .relayNotPaired: sentenceCatalog.sentence("transport.relayNotPaired", in: language)
        case .relayHostNotFound(let host): sentenceCatalog.sentence("transport.relayHostNotFound", .text(host.description), in: language)
        case .directAddressRefused(let address, let refusal): refusal.sentence(for: address, in: language)
        case .addressUnavailable(let code):
            sentenceCatalog.sentence("transport.addressUnavailable", .text(SystemErrorWords.cause(code, in: language)), in: language)
        case .closedLocally: sentenceCatalog.sentence("transport.closedLocally", in: language)
        case .notAHandoffSender: sentenceCatalog.sentence("transport.notAHandoffSender", in: language)
        case .codeRenewed: sentenceCatalog.sentence("transport.codeRenewed", in: language)
        case .notJoinedInTime: sentenceCatalog.sentence("transport.notJoinedInTime", in: language)
        case .evicted: sentenceCatalog.sentence("transport.evicted", in: language)
        case .unspecifiedAddress: sentenceCatalog.sentence("transport.unspecifiedAddress", in: language)
        case .system(let operation, let code):
            sentenceCatalog.sentence("transport.system", .text(operation), .text(SystemErrorWords.cause(code, in: language)), in: language)
        }
    }
}
