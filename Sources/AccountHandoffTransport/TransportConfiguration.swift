/// Timeouts and limits of the transport (Spec 11.6 gives the defaults).
///
/// The listener's admission deadline is absolute: it runs from the moment a connection is
/// accepted, and no byte that arrives restarts it. The bind deadline runs from admission and
/// stands still while one of the connection's frames waits for the session or is in its hands,
/// so a connection is never closed for being slow while the session is the slow one.
public struct TransportConfiguration: Hashable, Sendable {
    /// How long one TCP connect may take (the receiver).
    public var connectTimeout: Duration
    /// How long admission may take: for the listener, from accepting a connection to its
    /// whole response; for the receiver, from connecting to the whole challenge (Spec 11.4).
    public var admissionTimeout: Duration
    /// How long an admitted connection has until the session binds it (its hello
    /// authenticated), not counting the time its frames wait for the session or are in its
    /// hands (Spec 11.6). A connection still unbound then is closed
    /// (``TransportError/notJoinedInTime``).
    public var bindTimeout: Duration
    /// How long a frame may take to arrive once its first byte arrived.
    public var readTimeout: Duration
    /// How long writing one frame may take.
    public var writeTimeout: Duration
    /// How long a clean close waits for the peer to close its side.
    public var closeLinger: Duration
    /// Connections the listener keeps open at once. When a new connection arrives at this
    /// limit, one that is not bound and has no frame waiting for or with the session is closed
    /// to make room: one whose hello the session saw, otherwise the oldest not yet admitted (or
    /// the new one, when there is none; Spec 11.6). ``FrameListener`` uses at most half of the
    /// process's file-descriptor limit, whichever is smaller.
    public var maximumConnections: Int
    /// Frames the session may ignore on one connection that is not bound before the listener
    /// closes it.
    public var maximumIgnoredFrames: Int
    /// Hellos the listener hands to the session per second (each costs the session one
    /// X25519); the others wait, unread, first come first served.
    public var hellosPerSecond: Int
    /// How long a device waits before it connects to the relay again after the relay could
    /// not be reached or closed a connection before pairing it (Spec 11.7).
    public var relayRetryDelay: Duration
    /// How long a receiver gives the direct address, when the code has one, before it also
    /// connects through the relay (Spec 11.8); a direct attempt that fails sooner starts the
    /// relay at once.
    public var directHeadStart: Duration
    /// Connections paired by the relay that a sender's listener holds open at once (Spec
    /// 11.7): at this many, no new connection waits at the relay until one of them ends.
    public var maximumRelayedConnections: Int
    /// Typed connections from one IPv4 address that the typed listening socket keeps open and
    /// not bound at once (Spec 11.10 T10); a further one from that address is closed unread.
    public var maximumTypedConnectionsPerAddress: Int
    /// How long a typed connection that was sent its run's `pakeInit` has to send its next
    /// frame (Spec 11.10 T11); then it is closed and its run ends without a guess.
    public var typedReplyTimeout: Duration

    /// Creates a configuration; the defaults are Spec 11.6's.
    ///
    /// - Parameters:
    ///   - maximumConnections: at least 1; 256 by default, which bounds the listener's
    ///     buffers to about 2 MiB.
    ///   - maximumIgnoredFrames: at least 1; 8 by default.
    ///   - hellosPerSecond: at least 1; 64 by default.
    ///   - relayRetryDelay: 1 s by default (Spec 11.7).
    ///   - directHeadStart: 2 s by default (Spec 11.8).
    ///   - maximumRelayedConnections: at least 1; 8 by default.
    ///   - maximumTypedConnectionsPerAddress: at least 1; 2 by default (Spec 11.10 T10).
    ///   - typedReplyTimeout: 3 s by default (Spec 11.10 T11).
    public init(connectTimeout: Duration = .seconds(5), admissionTimeout: Duration = .seconds(5),
                bindTimeout: Duration = .seconds(10), readTimeout: Duration = .seconds(10),
                writeTimeout: Duration = .seconds(5), closeLinger: Duration = .milliseconds(500),
                maximumConnections: Int = 256, maximumIgnoredFrames: Int = 8, hellosPerSecond: Int = 64,
                relayRetryDelay: Duration = .seconds(1), directHeadStart: Duration = .seconds(2), maximumRelayedConnections: Int = 8,
                maximumTypedConnectionsPerAddress: Int = 2, typedReplyTimeout: Duration = .seconds(3)) {
        self.connectTimeout = connectTimeout
        self.admissionTimeout = admissionTimeout
        self.bindTimeout = bindTimeout
        self.readTimeout = readTimeout
        self.writeTimeout = writeTimeout
        self.closeLinger = closeLinger
        self.maximumConnections = max(1, maximumConnections)
        self.maximumIgnoredFrames = max(1, maximumIgnoredFrames)
        self.hellosPerSecond = max(1, hellosPerSecond)
        self.relayRetryDelay = relayRetryDelay
        self.directHeadStart = directHeadStart
        self.maximumRelayedConnections = max(1, maximumRelayedConnections)
        self.maximumTypedConnectionsPerAddress = max(1, maximumTypedConnectionsPerAddress)
        self.typedReplyTimeout = typedReplyTimeout
    }

    /// The defaults.
    public static let standard = TransportConfiguration()
}
