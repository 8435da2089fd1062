import AccountHandoff

/// The sender's side of the local transport as a ``FrameChannel``: a ``FrameListener`` whose
/// admitted connections are the channel's peers, served on its own thread.
public enum ListenerFrameChannel {
    /// Serves `listener` from now on; the listener belongs to the channel afterwards.
    public static func serving(_ listener: sending FrameListener) -> any FrameChannel {
        ThreadedFrameChannel(endpoint: ListenerEndpoint(listener), name: "handoff.listener")
    }
}

/// A ``FrameListener`` as a blocking endpoint.
final class ListenerEndpoint: BlockingFrameEndpoint {
    private let listener: FrameListener

    init(_ listener: FrameListener) { self.listener = listener }

    func poll(timeout: Duration) throws(TransportError) -> FrameChannelEvent? {
        switch try listener.next(timeout: timeout) {
        case .frame(let connection, let bytes): .frame(bytes, from: FramePeer(id: connection.rawValue))
        case .disconnected(let connection, _): .peerLeft(FramePeer(id: connection.rawValue))
        case .connected, nil: nil
        }
    }

    func send(_ frame: [UInt8], to peer: FramePeer) throws(TransportError) {
        try listener.send(frame, to: FrameListener.ConnectionID(rawValue: peer.id))
    }

    func bind(_ peer: FramePeer) { try? listener.bind(FrameListener.ConnectionID(rawValue: peer.id)) }
    func noteIgnoredFrame(from peer: FramePeer) { _ = listener.noteIgnoredFrame(FrameListener.ConnectionID(rawValue: peer.id)) }
    func disconnect(_ peer: FramePeer) { listener.disconnect(FrameListener.ConnectionID(rawValue: peer.id)) }
    func close() { listener.close() }
}
