/// Timeouts and limits of the local transport.
public struct TransportConfiguration: Hashable, Sendable {
    /// How long connecting may take.
    public var connectTimeout: Duration
    /// How long a new inbound connection has to present the rendezvous tag before it is dropped.
    public var handshakeTimeout: Duration
    /// How long a frame may take to arrive once its first byte arrived.
    public var readTimeout: Duration
    /// How long writing one frame may take.
    public var writeTimeout: Duration
    /// How long a clean close waits for the peer to close its side.
    public var closeLinger: Duration
    /// Connections the listener keeps open at once (tag-checked or not); more are refused.
    public var maximumConnections: Int

    /// Creates a configuration; the defaults suit a local network.
    public init(connectTimeout: Duration = .seconds(5), handshakeTimeout: Duration = .seconds(2),
                readTimeout: Duration = .seconds(10), writeTimeout: Duration = .seconds(5),
                closeLinger: Duration = .milliseconds(500), maximumConnections: Int = 8) {
        self.connectTimeout = connectTimeout
        self.handshakeTimeout = handshakeTimeout
        self.readTimeout = readTimeout
        self.writeTimeout = writeTimeout
        self.closeLinger = closeLinger
        self.maximumConnections = max(1, maximumConnections)
    }

    /// The defaults.
    public static let standard = TransportConfiguration()
}
