import AccountHandoff

/// The receiver's side of the local transport as a ``FrameChannel``: one ``FrameConnection``
/// to the sender, served on its own thread.
public enum ConnectionFrameChannel {
    /// Connects to the sender named by a QR's rendezvous token and presents the tag.
    ///
    /// - Throws: ``TransportError/unsupportedRendezvous``, ``TransportError/connectionRefused``,
    ///   ``TransportError/timedOut`` and the other connection errors.
    public static func connect(to token: RendezvousToken,
                               configuration: TransportConfiguration = .standard) throws(TransportError) -> any FrameChannel {
        let connection = try FrameConnection.connect(to: TCPRendezvous(token: token), configuration: configuration)
        return ThreadedFrameChannel(endpoint: ConnectionEndpoint(connection), name: "handoff.connection")
    }
}

/// A ``FrameConnection`` as a blocking endpoint with one peer.
final class ConnectionEndpoint: BlockingFrameEndpoint {
    static let peer = FramePeer(id: 0)
    private let connection: FrameConnection
    private var ended = false

    init(_ connection: FrameConnection) { self.connection = connection }

    func poll(timeout: Duration) throws(TransportError) -> FrameChannelEvent? {
        guard !ended else { return nil }
        do {
            return .frame(try connection.receive(timeout: timeout), from: Self.peer)
        } catch .timedOut where !connection.isStalled {
            return nil
        } catch {
            ended = true
            return .peerLeft(Self.peer)
        }
    }

    func send(_ frame: [UInt8], to peer: FramePeer) throws(TransportError) { try connection.send(frame) }
    func bind(_ peer: FramePeer) {}
    func noteIgnoredFrame(from peer: FramePeer) {}
    func disconnect(_ peer: FramePeer) { connection.close() }
    func close() { connection.close() }
}
