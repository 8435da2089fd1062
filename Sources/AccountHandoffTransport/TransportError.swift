import AccountHandoff

/// Why the local transport could not carry a frame. Every case maps to the core's
/// ``AccountHandoff/HandoffError`` through ``handoffError``, which is what a session sees.
public enum TransportError: Error, Hashable, Sendable {
    /// The peer closed the connection.
    case closedByPeer
    /// Nothing (or only part of a frame) arrived in time, or a write could not finish in time.
    case timedOut
    /// Nobody accepted the connection at the rendezvous address.
    case connectionRefused
    /// The peer announced a frame larger than ``AccountHandoff/Frame/maximumByteCount``.
    case oversizedFrame(Int)
    /// The peer announced an empty frame, which the framing does not allow.
    case emptyFrame
    /// The rendezvous token is not one this transport understands.
    case unsupportedRendezvous
    /// The listening address could not be bound (in use, or not an address of this machine).
    case addressUnavailable(errno: Int32)
    /// This side already closed the connection.
    case closedLocally
    /// Another socket call failed.
    case system(operation: String, errno: Int32)

    /// The core's typed failure for this error: drops and timeouts are
    /// ``AccountHandoff/HandoffError/transportLost``; an oversized frame is
    /// ``AccountHandoff/HandoffError/oversizedFrame(_:)``; a token this transport cannot read is
    /// `malformed(.rendezvous)`.
    public var handoffError: HandoffError {
        switch self {
        case .oversizedFrame(let count): .oversizedFrame(count)
        case .unsupportedRendezvous: .malformed(.rendezvous)
        case .closedByPeer, .timedOut, .connectionRefused, .emptyFrame, .addressUnavailable, .closedLocally, .system:
            .transportLost
        }
    }
}

extension TransportError: CustomStringConvertible {
    /// A whole sentence for people, with what to do next.
    public var description: String {
        switch self {
        case .closedByPeer: "The other device closed the connection; start a new transfer."
        case .timedOut: "The other device did not answer in time; check that it is still running and start a new transfer."
        case .connectionRefused: "Nothing is listening at the address in the code; check that the sending device is still waiting, or start a new transfer."
        case .oversizedFrame(let count): "The other device sent a \(count)-byte message, more than the \(Frame.maximumByteCount)-byte limit; the connection was closed."
        case .emptyFrame: "The other device sent an empty message; the connection was closed."
        case .unsupportedRendezvous: "The code's rendezvous token is not a local network address this program understands; scan a code made by the handoff tool."
        case .addressUnavailable(let code): "The listening address cannot be used (errno \(code)); choose another address or port."
        case .closedLocally: "The connection was already closed."
        case .system(let operation, let code): "The network call \(operation) failed (errno \(code)); try again."
        }
    }
}
