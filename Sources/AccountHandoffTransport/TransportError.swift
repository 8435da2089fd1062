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

extension TransportError: LocalizedError, CustomStringConvertible {
    /// A whole sentence for people, with what to do next.
    public var errorDescription: String? { description }

    /// A whole sentence for people, with what to do next.
    public var description: String {
        switch self {
        case .closedByPeer: "The other device closed the connection; start a new transfer."
        case .timedOut: "The other device did not answer in time; check that it is still running and start a new transfer."
        case .connectionRefused: "Nothing is listening at the address in the code; check that the sending device is still waiting, or start a new transfer."
        case .networkUnreachable: "This device has no route to the address in the code (another network, or one that keeps its devices apart); use the sending device's relay, or connect both devices to the same network."
        case .oversizedFrame(let count): "The other device sent a \(count)-byte message, more than the \(Frame.maximumByteCount)-byte limit; the connection was closed."
        case .emptyFrame: "The other device sent an empty message; the connection was closed."
        case .unsupportedRendezvous(let error): error.description
        case .relayClosed: "The relay closed the connection before pairing it with the other device; check the relay's address, or try again."
        case .garbledByRelay: "The relay changed the bytes it copied from the sending device, so that connection could not carry the transfer; use another relay, or connect both devices to the same network."
        case .relayNotPaired: "The relay did not pair this device with the sending device before the code ran out; check that the sending device still shows the code and uses the same relay, then scan a new code."
        case .relayHostNotFound(let host): "The relay \(host) could not be found (no IPv4 address); check the network and the relay's name, or try again."
        case .directAddressRefused(let address, let refusal): refusal.sentence(for: address)
        case .addressUnavailable(let code): "The listening address cannot be used: \(SystemErrorWords.cause(code)); choose another address or port."
        case .closedLocally: "The connection was already closed."
        case .notAHandoffSender: "The program at the code's address is not a sending device of this transfer; check the code and try again."
        case .codeRenewed: "The sending device at this code's address does not serve this code: either it shows a new code now (scan or copy that one), or this copy of the code was changed on its way (copy it again, whole)."
        case .notJoinedInTime: "The connection did not join the transfer in time and was closed; a device that scanned the code can connect again."
        case .evicted: "The connection was closed to make room for newer ones because it had not joined the transfer; a device that scanned the code can connect again."
        case .unspecifiedAddress: "The address 0.0.0.0 stands for every address of this machine and cannot be put in a code; listen on one address of this machine, such as 127.0.0.1."
        case .system(let operation, let code): "The network call \(operation) failed: \(SystemErrorWords.cause(code)); try again."
        }
    }
}
