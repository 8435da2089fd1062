/// Timeouts and limits of the local transport.
///
/// The listener's admission deadlines are absolute: they run from the moment a connection is
/// accepted (``tagTimeout``) and from the moment it completed the tag (``helloTimeout``), and
/// no byte that arrives restarts them. An unauthenticated connection therefore holds a slot
/// for at most `tagTimeout + helloTimeout` (7 seconds with the defaults), and less when newer
/// connections need its slot.
public struct TransportConfiguration: Hashable, Sendable {
    /// How long connecting may take.
    public var connectTimeout: Duration
    /// How long a new inbound connection has, from its acceptance, to present the whole
    /// rendezvous tag before it is dropped.
    public var tagTimeout: Duration
    /// How long an inbound connection has, from the moment it presented the tag, until the
    /// session binds it with ``FrameListener/bind(_:)`` (its hello authenticated). A
    /// connection still unbound then is closed and reported with
    /// ``TransportError/notJoinedInTime``.
    public var helloTimeout: Duration
    /// How long a frame may take to arrive once its first byte arrived.
    public var readTimeout: Duration
    /// How long writing one frame may take.
    public var writeTimeout: Duration
    /// How long a clean close waits for the peer to close its side.
    public var closeLinger: Duration
    /// Connections the listener keeps open at once, bound or not. When a new connection
    /// arrives at this limit, the oldest connection that is not bound to the session is
    /// closed to make room. ``FrameListener`` uses at most half of the process's
    /// file-descriptor limit, whichever is smaller (see ``FrameListener/connectionCapacity``).
    public var maximumConnections: Int
    /// Frames the session may ignore on one connection that is not bound before
    /// ``FrameListener/noteIgnoredFrame(_:)`` closes that connection.
    public var maximumIgnoredFrames: Int

    /// Creates a configuration; the defaults suit a local network.
    ///
    /// - Parameters:
    ///   - maximumConnections: at least 1; 256 by default, which bounds the listener's
    ///     buffers to about 2 MiB (see ``FrameListener``).
    ///   - maximumIgnoredFrames: at least 1; 8 by default.
    public init(connectTimeout: Duration = .seconds(5), tagTimeout: Duration = .seconds(2),
                helloTimeout: Duration = .seconds(5), readTimeout: Duration = .seconds(10),
                writeTimeout: Duration = .seconds(5), closeLinger: Duration = .milliseconds(500),
                maximumConnections: Int = 256, maximumIgnoredFrames: Int = 8) {
        self.connectTimeout = connectTimeout
        self.tagTimeout = tagTimeout
        self.helloTimeout = helloTimeout
        self.readTimeout = readTimeout
        self.writeTimeout = writeTimeout
        self.closeLinger = closeLinger
        self.maximumConnections = max(1, maximumConnections)
        self.maximumIgnoredFrames = max(1, maximumIgnoredFrames)
    }

    /// The defaults.
    public static let standard = TransportConfiguration()
}
