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
    /// The connection presented the tag but the session did not bind it (no authenticated
    /// hello) within ``TransportConfiguration/helloTimeout``; the listener closed it.
    case notJoinedInTime
    /// The connection had not been bound to the session and was closed to make room for a
    /// newer connection when the listener was full.
    case evicted
    /// ``FrameListener/bind(_:)`` was asked to bind more than ``FrameListener/maximumBoundConnections``.
    case boundConnectionLimit
    /// A listener cannot advertise `0.0.0.0` (every address of this machine) in a code.
    case unspecifiedAddress
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
        case .closedByPeer, .timedOut, .connectionRefused, .emptyFrame, .addressUnavailable, .closedLocally, .notJoinedInTime,
             .evicted, .boundConnectionLimit, .unspecifiedAddress, .system:
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
        case .notJoinedInTime: "The connection did not join the transfer in time and was closed; a device that scanned the code can connect again."
        case .evicted: "The connection was closed to make room for newer ones because it had not joined the transfer; a device that scanned the code can connect again."
        case .boundConnectionLimit: "Too many connections presented this transfer's hello; start a new transfer and keep the code out of sight."
        case .unspecifiedAddress: "The address 0.0.0.0 stands for every address of this machine and cannot be put in a code; listen on one address of this machine, such as 127.0.0.1."
        case .system(let operation, let code): "The network call \(operation) failed (errno \(code)); try again."
        }
    }
}
