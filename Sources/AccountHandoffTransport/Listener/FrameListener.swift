import AccountHandoff

/// The sender's side of the transport (Spec 11.4-11.6): listens on a local address, admits
/// connections that answer the admission challenge, and is the sender session's
/// ``AccountHandoff/FrameChannel``: its admitted connections are the channel's peers.
///
/// ```swift
/// let listener = try FrameListener(address: .loopback)
/// let session = HandoffSenderSession(account: account, rendezvous: listener.rendezvous.token, channel: listener,
///                                    credential: readPassword, authenticator: gate, registry: registry)
/// let outcome = await session.run()  // the session hands each QR's keys to the listener (serve)
/// ```
///
/// A listener serves one session: the session switches it to each of its QRs' keys and closes
/// it when it ends, so a listener handed to a second session shows a code nobody can reach.
/// `HandoffSenderSession(account:listeningOn:...)` opens one that only its session holds.
///
/// Admission is built so that no stray or hostile peer can block a transfer:
/// - every connection is challenged at once (Spec 11.4) and must answer within
///   ``TransportConfiguration/admissionTimeout`` of being accepted, so nobody who did not see
///   the QR gets a byte to the session; the deadline is absolute, a trickle gains nothing;
/// - an admitted connection must be bound (its hello authenticated) within
///   ``TransportConfiguration/bindTimeout``, a clock that stands still while one of its frames
///   waits for the session or is in its hands: an honest connection is never closed while its
///   hello waits;
/// - one hello per connection that is not bound (a second closes it), and at most
///   ``TransportConfiguration/hellosPerSecond`` hellos handed to the session, first come
///   first served; the others wait unread (Spec 11.6);
/// - frames are read only as the session asks for events: each connection holds at most one
///   frame (4,096 bytes and its 2-byte prefix), so a flood backs up into the peers' sockets;
/// - up to ``connectionCapacity`` connections are held; at the limit a connection that is
///   not bound and has no frame waiting for or with the session is closed to make room: one
///   whose hello the session already saw first, otherwise the oldest not yet admitted; an
///   admitted connection whose hello is still to come never is, and when there is none the
///   new one is closed;
/// - after ``TransportConfiguration/maximumIgnoredFrames`` frames that the session ignored,
///   a connection that is not bound is closed.
///
/// Every socket is close-on-exec from birth, and the listening socket is shut down before it
/// is closed, so a program the app starts never keeps the port or a connection open (Spec 8.3).
/// All the work happens on the process's transport event loop; no call blocks.
public final class FrameListener: FrameChannel, @unchecked Sendable {
    // Safety of @unchecked Sendable: the mutable state lives in `core`, which only the event
    // loop's thread touches; everything here is immutable or hands work to the loop.

    /// How many connections may be bound at once: a copy of the accepted hello can arrive on
    /// other connections (Spec 6.7), and the session keeps each as a candidate until an
    /// authenticated frame decides which one is the receiver's. The session's candidate cap
    /// is this number.
    public static let maximumBoundConnections = HandoffSenderSession.maximumCandidates

    /// Where receivers find this sender (its direct address, its relay, or both); put
    /// ``TCPRendezvous/token`` in the QR.
    public let rendezvous: TCPRendezvous
    /// The address and port the listening socket is bound to, advertised in the code or not.
    public let listeningEndpoint: TCPRendezvous.Endpoint
    /// The timeouts and limits in force.
    public let configuration: TransportConfiguration
    /// The most connections held at once: ``TransportConfiguration/maximumConnections``, or
    /// half of the process's soft file-descriptor limit when that is smaller, so the rest of
    /// the app keeps descriptors to work with.
    public let connectionCapacity: Int

    /// The typed way's listening address and port (Spec 11.10), when the listener has one: the
    /// port its announcer announces.
    public let typedEndpoint: TCPRendezvous.Endpoint?

    let core: ListenerCore
    private let loop: EventLoop
    private let announcer: (any TypedWayAnnouncer)?
    /// The relay the typed way waits at when its session offers the relay route (Spec 12.8).
    private let typedRelay: TCPRendezvous.Relay?
    private let receiveCounter = Counter()

    /// What the listener does at its relay, as it changes (Spec 11.7); finishes when the
    /// listener closes, at once for a listener without a relay.
    public let relayStatus: AsyncStream<RelayStatus>

    /// Listens on `address:port` (port 0 picks a free one) and, with a `relay`, keeps a
    /// connection waiting there for the receiving device (Spec 11.7). Until it has keys (here
    /// or with ``setKeys(_:)`` or ``serve(_:)``) it accepts connections but challenges none, and
    /// waits at no relay.
    ///
    /// - Parameters:
    ///   - relay: the relay to put in the code and wait at, if any.
    ///   - advertisesDirectAddress: whether the code names `address:port` too; `false` makes a
    ///     relay-only code (the listening socket still admits whoever reaches it).
    ///   - keys: the transport keys of the session's QR, when the QR exists already.
    ///   - typedWay: with a `relay`, the listener waits there for the typed way too while its
    ///     session offers ``AccountHandoff/TypedRoute/relay`` (Spec 12.8). With an announcer,
    ///     the listener also listens for the typed way on a port
    ///     of its own at `address` (Spec 11.10), announces each nameplate its session serves
    ///     for ``AccountHandoff/TypedRoute/localNetwork`` through it, and reports the
    ///     connections that come as ``AccountHandoff/FrameChannelEvent/typedConnection(_:route:)``.
    /// - Throws: ``TransportError/addressUnavailable(errno:)`` when the address cannot be bound;
    ///   ``TransportError/unspecifiedAddress`` for `0.0.0.0`, which a code cannot advertise;
    ///   ``TransportError/unsupportedRendezvous(_:)`` when the code would name no route or
    ///   would not fit its 32 bytes (a relay host that is too long);
    ///   ``TransportError/system(operation:errno:)`` when the event loop cannot start.
    public init(address: IPv4Address = .loopback, port: UInt16 = 0, relay: TCPRendezvous.Relay? = nil,
                advertisesDirectAddress: Bool = true, keys: TransportKeys? = nil,
                configuration: TransportConfiguration = .standard, typedWay announcer: (any TypedWayAnnouncer)? = nil) throws(TransportError) {
        guard !address.isUnspecified else { throw .unspecifiedAddress }
        let loop = try EventLoop.shared()
        let capacity = DescriptorBudget.connectionCapacity(configured: configuration.maximumConnections)
        let socket = try POSIXSocket.makeTCP()
        // A deep backlog lets a receiver's connect complete while a flood is being worked off;
        // the kernel caps it (net.core.somaxconn).
        try socket.listen(address: address, port: port, backlog: Int32(clamping: max(capacity, 1024)))
        let direct = TCPRendezvous.Endpoint(address: address, port: try socket.localPort())!
        do { self.rendezvous = try TCPRendezvous(direct: advertisesDirectAddress ? direct : nil, relay: relay) } catch {
            socket.close()
            throw .unsupportedRendezvous(error)
        }
        var typedSocket: POSIXSocket?
        if announcer != nil {
            do {
                let made = try POSIXSocket.makeTCP()
                typedSocket = made
                try made.listen(address: address, port: 0, backlog: 1024)
                typedEndpoint = TCPRendezvous.Endpoint(address: address, port: try made.localPort())
            } catch {
                typedSocket?.close()
                socket.close()
                throw error
            }
        } else {
            typedEndpoint = nil
        }
        self.announcer = announcer
        self.listeningEndpoint = direct
        self.configuration = configuration
        self.connectionCapacity = capacity
        self.loop = loop
        let core = ListenerCore(loop: loop, listening: socket, configuration: configuration, capacity: capacity, keys: keys)
        self.core = core
        let (status, continuation) = AsyncStream<RelayStatus>.makeStream(bufferingPolicy: .bufferingNewest(16))
        relayStatus = status
        let room = relay.map { RelayWaitingRoom(relay: $0, loop: loop, configuration: configuration, listener: core, status: continuation) }
        if room == nil { continuation.finish() }
        let acceptor = typedSocket.map { TypedAcceptor(socket: $0, loop: loop, core: core) }
        // The typed way's room at the relay: its status is not reported (the QR's room says how the relay is).
        let (_, typedStatus) = AsyncStream<RelayStatus>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let typedRoom = relay.map { RelayWaitingRoom(relay: $0, purpose: .typed, loop: loop, configuration: configuration, listener: core, status: typedStatus) }
        self.typedRelay = relay
        loop.execute {
            core.start()
            if let room { core.attach(room) }
            if let acceptor { core.attach(acceptor) }
            if let typedRoom { core.attachTyped(typedRoom) }
        }
    }

    deinit {
        announcer?.withdraw()
        let core = self.core
        loop.execute { core.abandon() }
    }

    /// Serves the QR with these keys from now on (Spec 11.8): new connections are challenged
    /// with them, and connections challenged or admitted under other keys, and not bound, are
    /// closed (they belong to a QR that was renewed). The listening port stays.
    public func setKeys(_ keys: TransportKeys) {
        let core = self.core
        loop.execute { core.setKeys(keys) }
    }

    /// The sender session shows `payload`'s QR: its transport keys admit connections from now
    /// on (Spec 11.4, 11.8). A session calls this for its first QR and each renewed one.
    public func serve(_ payload: SessionPayload) async {
        guard let keys = try? TransportKeys(payload: payload) else { return }
        setKeys(keys)
    }

    /// The sender session shows a typed code with `offer`, or none (Spec 11.10): typed
    /// connections are accepted for its nameplate from now on, the nameplate is announced on
    /// the local network when the offer has that route, and typed connections that came for an
    /// earlier nameplate and are not bound are closed, after the frames sent to them left. A
    /// listener without a typed way ignores this.
    public func serveTyped(_ offer: TypedOffer?) async {
        let local = typedEndpoint != nil && announcer != nil && offer?.routes.contains(.localNetwork) == true
        let relayLine = typedRelay != nil && offer?.routes.contains(.relay) == true ? offer.flatMap { Self.typedRelayLine($0.nameplate) } : nil
        let served = local || relayLine != nil ? offer?.nameplate : nil
        await onLoop { $0.serveTyped(served, onLocalNetwork: local, relayLine: relayLine) }
        guard let announcer else { return }
        guard local, let served, let typedEndpoint else { return announcer.withdraw() }
        let core = self.core
        let loop = self.loop
        announcer.announce(served, port: typedEndpoint.port) { taken in
            loop.execute { core.nameTaken(taken) }
        }
    }

    /// The sender's relay line for a nameplate: its token and the fixed sender side (Spec 12.8).
    static func typedRelayLine(_ nameplate: TypedCode.Nameplate) -> [UInt8]? {
        guard let keys = try? TypedRelayKeys(nameplate: nameplate) else { return nil }
        return RelayHandshake.line(relayToken: keys.relayToken, side: keys.senderSide)
    }

    /// What happened to the connections so far.
    public var statistics: ListenerStatistics {
        get async { await onLoop { $0.statistics } }
    }

    /// Connections open right now (not those lingering after a disconnect).
    public var openConnectionCount: Int {
        get async { await onLoop { $0.openConnectionCount } }
    }

    /// The peers bound now, in order of arrival.
    public var boundPeers: [FramePeer] {
        get async { await onLoop { $0.boundConnections } }
    }

    /// The largest number of bytes any connection buffered at once, and the most events
    /// queued at once (test hooks).
    package var peaks: (bufferedBytes: Int, queuedEvents: Int) {
        get async { await onLoop { ($0.peakBufferedByteCount, $0.peakQueuedEventCount) } }
    }

    /// The listening socket's, the connections' and the event loop's descriptors (test hook).
    package var descriptors: [Int32] {
        get async { await onLoop { [loop] core in core.descriptors + loop.pollerDescriptors } }
    }

    /// Serves an already connected socket as one more connection, admitted like an accepted
    /// one: the paired end of a relay (Spec 11.7).
    func adopt(_ socket: POSIXSocket) {
        let core = self.core
        loop.execute { core.take(socket) }
    }

    // MARK: FrameChannel

    /// The next event: a frame of an admitted connection, or the end of a connection whose
    /// frames the session saw; `nil` once the listener is closed. The frame returned before
    /// counts as processed now: its connection is read again and its bind clock runs again.
    ///
    /// - Throws: when the listening socket failed, or `CancellationError`.
    public func receive() async throws -> FrameChannelEvent? {
        let core = self.core
        return try await loop.receive(receiveCounter.next()) { core.receive($0, $1) } cancel: { core.cancelReceive($0) }
    }

    /// Sends one frame to `peer`; returns once it is written to the socket.
    ///
    /// - Throws: ``TransportError/closedLocally`` for a peer that is no longer connected;
    ///   ``TransportError/timedOut`` when the peer did not take it within
    ///   ``TransportConfiguration/writeTimeout`` (the connection is closed then);
    ///   ``TransportError/emptyFrame`` or ``TransportError/oversizedFrame(_:)`` for a frame
    ///   outside the cap.
    public func send(_ frame: [UInt8], to peer: FramePeer) async throws {
        let core = self.core
        try await loop.wait(forThrowing: { core.send(frame, to: peer, $0) })
    }

    /// Binds `peer` to the session: call it when the session authenticated the hello that came
    /// on it (or a byte-identical copy, Spec 6.7). A bound connection has no bind deadline and
    /// is never closed to make room. At most ``maximumBoundConnections`` are bound at once;
    /// binding more, a connection that is gone or one already bound does nothing.
    public func bind(_ peer: FramePeer) async {
        await onLoop { $0.bind(peer) }
    }

    /// Records that the session ignored a frame from `peer`; a connection that is not bound is
    /// closed when this reaches ``TransportConfiguration/maximumIgnoredFrames`` (no event
    /// follows for it).
    public func noteIgnoredFrame(from peer: FramePeer) async {
        await onLoop { $0.noteIgnoredFrame(from: peer) }
    }

    /// Closes one connection; no event follows for it. One that was sent frames stops sending
    /// and lingers for ``TransportConfiguration/closeLinger`` (without blocking anyone) so the
    /// frames reach the peer; any other closes at once.
    public func disconnect(_ peer: FramePeer) async {
        await onLoop { $0.disconnect(peer) }
    }

    /// Stops listening and closes every connection; returns once they are closed. Connections
    /// that were sent frames get their frames written (each within the write timeout) and one
    /// ``TransportConfiguration/closeLinger`` to read them. A waiting ``receive()`` returns
    /// `nil`. Idempotent.
    public func close() async {
        announcer?.withdraw()
        let core = self.core
        await loop.wait { core.close($0) }
    }

    private func onLoop<Result: Sendable>(_ body: @escaping @Sendable (ListenerCore) -> Result) async -> Result {
        let core = self.core
        return await loop.wait { $0.resume(returning: body(core)) }
    }
}
