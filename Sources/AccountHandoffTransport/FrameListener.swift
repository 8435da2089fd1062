#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff

/// The sender's side of the local transport: listens on a local address, admits connections
/// that present the rendezvous tag, and reports their frames as ``Event``s.
///
/// Admission is built so that no stray peer can block a transfer:
/// - every connection must present the whole tag within ``TransportConfiguration/tagTimeout``
///   of being accepted, and must then be bound by the session with ``bind(_:)`` (its hello
///   authenticated) within ``TransportConfiguration/helloTimeout`` of presenting the tag;
///   the deadlines are absolute, so a byte-by-byte trickle gains nothing;
/// - there is no small pool to fill: up to ``connectionCapacity`` connections are held, and
///   when a new one arrives at that limit the oldest connection that is not bound is closed
///   (one that is already being closed goes first), never the bound one; at most an eighth
///   of the capacity is accepted between two rounds of reads, so a new connection is read
///   several times before it could become the oldest;
/// - reads never take more than a connection still needs, so each connection holds at most
///   the 10-byte preamble or one partial frame (the 4,096-byte cap plus its 2-byte prefix),
///   and at most one whole frame waits per connection for the driver: about 8 KiB per
///   connection and about 2 MiB in all with the default capacity of 256;
/// - ``noteIgnoredFrame(_:)`` lets the driver close an unbound connection that keeps
///   sending frames the session ignores, without ending the session.
///
/// A driver calls ``next(timeout:)`` in a loop, feeds each frame to its session, calls
/// ``bind(_:)`` when the session authenticated a hello on a connection, and
/// ``noteIgnoredFrame(_:)`` when the session ignored one.
///
/// It is not thread-safe: use it from one thread (the app's session loop).
public final class FrameListener {
    /// Identifies one accepted connection.
    public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
        let rawValue: Int
        /// `#n`, numbered from 1 in order of arrival (connections that never presented the
        /// tag take numbers too).
        public var description: String { "#\(rawValue)" }
    }

    /// What happened on the listener.
    public enum Event: Hashable, Sendable {
        /// A connection presented the right tag and may now send frames.
        case connected(ConnectionID)
        /// A whole frame arrived on an admitted connection.
        case frame(ConnectionID, [UInt8])
        /// An admitted connection ended and is closed: it closed, stalled, broke the framing,
        /// was not bound in time (``TransportError/notJoinedInTime``) or was closed to make
        /// room (``TransportError/evicted``). Only the bound connection's end matters to a
        /// session; the others can be ignored.
        case disconnected(ConnectionID, TransportError)

        /// The connection the event is about.
        public var connection: ConnectionID {
            switch self {
            case .connected(let connection), .frame(let connection, _), .disconnected(let connection, _): connection
            }
        }
    }

    /// Where receivers connect; put ``TCPRendezvous/token`` in the QR.
    public let rendezvous: TCPRendezvous
    /// The timeouts and limits in force.
    public let configuration: TransportConfiguration
    /// The most connections held at once: ``TransportConfiguration/maximumConnections``, or
    /// half of the process's soft file-descriptor limit when that is smaller, so the rest of
    /// the app keeps descriptors to work with. The listener's descriptors number at most
    /// `connectionCapacity + 2`: the listening socket, the connections, and for a moment a newly
    /// accepted one while the oldest unbound connection is closed to make room for it.
    public let connectionCapacity: Int
    /// What happened to the connections so far.
    public private(set) var statistics = ListenerStatistics()
    /// How many connections may be bound at once: a copy of the accepted hello can arrive on
    /// another connection (Spec 6.7), and the driver keeps each as a candidate until an
    /// authenticated frame decides which one is the receiver's.
    public static let maximumBoundConnections = 4
    /// The connections bound with ``bind(_:)``, in order; they stay recorded after they end.
    public private(set) var boundConnections: [ConnectionID] = []

    private let socket: POSIXSocket
    private var connections: [Int: InboundConnection] = [:]
    private var events: [Event] = []
    private var nextIdentifier = 1
    private var acceptPausedUntil: ContinuousClock.Instant?

    /// The largest number of bytes any connection buffered at once (test hook).
    package private(set) var peakBufferedByteCount = 0
    /// The most events queued at once (test hook).
    package private(set) var peakQueuedEventCount = 0

    /// Listens on `address:port` (port 0 picks a free one) with a tag drawn from `random`.
    ///
    /// - Throws: ``TransportError/addressUnavailable(errno:)`` when the address cannot be bound;
    ///   ``TransportError/unspecifiedAddress`` for `0.0.0.0`.
    public convenience init(address: IPv4Address = .loopback, port: UInt16 = 0, random: RandomSource,
                            configuration: TransportConfiguration = .standard) throws(TransportError) {
        var tag = [UInt8](repeating: 0, count: TCPRendezvous.tagByteCount)
        tag.withUnsafeMutableBytes { random.fill($0) }
        try self.init(address: address, port: port, tag: tag, configuration: configuration)
    }

    /// Listens on `address:port` (port 0 picks a free one) and admits connections presenting `tag`.
    ///
    /// - Throws: ``TransportError/addressUnavailable(errno:)`` when the address cannot be bound;
    ///   ``TransportError/unspecifiedAddress`` for `0.0.0.0`, which a code cannot advertise;
    ///   ``TransportError/unsupportedRendezvous`` for a tag that is not 6 bytes.
    public init(address: IPv4Address = .loopback, port: UInt16 = 0, tag: [UInt8],
                configuration: TransportConfiguration = .standard) throws(TransportError) {
        guard tag.count == TCPRendezvous.tagByteCount else { throw .unsupportedRendezvous }
        guard !address.isUnspecified else { throw .unspecifiedAddress }
        let capacity = DescriptorBudget.connectionCapacity(configured: configuration.maximumConnections)
        let socket = try POSIXSocket.makeTCP()
        // A deep backlog lets a receiver's connect complete while a flood is being worked off;
        // the kernel caps it (net.core.somaxconn).
        try socket.listen(address: address, port: port, backlog: Int32(clamping: max(capacity, 1024)))
        self.socket = socket
        self.configuration = configuration
        self.connectionCapacity = capacity
        self.rendezvous = TCPRendezvous(address: address, port: try socket.localPort(), tag: tag)!
    }

    deinit { close() }

    /// Waits up to `timeout` for the next event; `nil` when nothing happened in time.
    ///
    /// - Throws: ``TransportError/closedLocally`` after ``close()``; other ``TransportError``s
    ///   only when the listening socket itself fails.
    public func next(timeout: Duration) throws(TransportError) -> Event? {
        let deadline = ContinuousClock.now + timeout
        var polled = false
        while true {
            if !events.isEmpty { return events.removeFirst() }
            guard socket.isOpen else { throw .closedLocally }
            // Deadlines and evictions act only while no event waits for the driver, so a
            // connection is never closed between reporting its frame and the driver's answer.
            closeExpired(at: .now)
            if !events.isEmpty { continue }
            if polled, ContinuousClock.now >= deadline { return nil }
            try pollOnce(until: deadline)
            polled = true
        }
    }

    /// Binds `connection` to the session: call it when the session authenticated the hello
    /// that came on it (or a byte-identical copy of it, Spec 6.7). A bound connection has no
    /// admission deadline and is never closed to make room. Binding it again does nothing; at
    /// most ``maximumBoundConnections`` can be bound, and the driver disconnects the ones that
    /// turn out not to be the receiver's.
    ///
    /// - Throws: ``TransportError/closedLocally`` when the connection is no longer open;
    ///   ``TransportError/boundConnectionLimit`` when as many connections are bound already.
    public func bind(_ connection: ConnectionID) throws(TransportError) {
        if boundConnections.contains(connection) {
            guard connections[connection.rawValue]?.isServing == true else { throw .closedLocally }
            return
        }
        guard boundConnections.count < Self.maximumBoundConnections else { throw .boundConnectionLimit }
        guard let target = connections[connection.rawValue], target.bind() else { throw .closedLocally }
        boundConnections.append(connection)
    }

    /// Records that the session ignored a frame from `connection`. An unbound connection is
    /// closed at once when this reaches ``TransportConfiguration/maximumIgnoredFrames`` (no
    /// event follows for it, and its queued events are dropped); the bound connection is
    /// never closed here, the driver decides about it.
    ///
    /// - Returns: `true` when this call closed the connection.
    @discardableResult
    public func noteIgnoredFrame(_ connection: ConnectionID) -> Bool {
        guard let target = connections[connection.rawValue], target.isServing else { return false }
        target.ignoredFrameCount += 1
        guard target.isAdmitted, target.ignoredFrameCount >= configuration.maximumIgnoredFrames else { return false }
        remove(connection.rawValue)?.close()
        dropQueuedEvents(of: connection)
        statistics.closedForIgnoredFrames += 1
        return true
    }

    /// Sends one frame on an admitted or bound connection.
    ///
    /// - Warning: This blocks for up to ``TransportConfiguration/writeTimeout`` when the
    ///   peer stopped reading and its buffers are full. Send to a connection that is not
    ///   bound only what the protocol requires (such as one notice before ``disconnect(_:)``).
    /// - Throws: ``TransportError/closedLocally`` for a connection that is no longer open, and
    ///   the errors of ``FrameConnection/send(_:)``.
    public func send(_ frame: [UInt8], to connection: ConnectionID) throws(TransportError) {
        guard let target = connections[connection.rawValue] else { throw .closedLocally }
        try target.send(frame, timeout: configuration.writeTimeout)
    }

    /// Closes one connection; no event follows for it, and its queued events are dropped.
    /// A connection that was sent frames stops sending and keeps reading until the peer
    /// closes or ``TransportConfiguration/closeLinger`` passes, without blocking, so the
    /// frames reach the peer; any other closes at once.
    public func disconnect(_ connection: ConnectionID) {
        guard let target = connections[connection.rawValue], target.isServing else { return }
        dropQueuedEvents(of: connection)
        if target.hasSent {
            target.startClosing(linger: configuration.closeLinger)
        } else {
            remove(connection.rawValue)?.close()
        }
    }

    /// Stops listening and closes every connection. Connections that were sent frames get
    /// one shared ``TransportConfiguration/closeLinger`` to read them before the close, so this
    /// blocks for at most that long however many there are. Idempotent.
    public func close() {
        socket.closeListening()
        events.removeAll()
        var lingering: [InboundConnection] = []
        for connection in connections.values {
            guard connection.hasSent else {
                connection.close()
                continue
            }
            if connection.isServing { connection.startClosing(linger: configuration.closeLinger) }
            lingering.append(connection)
        }
        connections.removeAll()
        finishClosing(lingering)
    }

    /// Connections open right now that present the tag, are admitted or are bound (not those
    /// being closed).
    public var openConnectionCount: Int { connections.values.count(where: \.isServing) }

    /// Connections closed before they were ever reported: wrong or late tag, or closed to
    /// make room before presenting it (see ``ListenerStatistics/droppedBeforeTag``).
    public var droppedConnectionCount: Int { statistics.droppedBeforeTag }

    // MARK: Polling

    private func pollOnce(until deadline: ContinuousClock.Instant) throws(TransportError) {
        var wakeUp = deadline
        for connection in connections.values {
            if let due = connection.nextDeadline(readTimeout: configuration.readTimeout) { wakeUp = min(wakeUp, due) }
        }
        if let resume = acceptPausedUntil {
            if resume <= .now { acceptPausedUntil = nil } else { wakeUp = min(wakeUp, resume) }
        }
        let polledIDs = Array(connections.keys)
        var descriptors = [pollfd(fd: acceptPausedUntil == nil ? socket.descriptor : -1, events: Int16(POLLIN), revents: 0)]
        descriptors += polledIDs.map { pollfd(fd: connections[$0]!.descriptor, events: Int16(POLLIN), revents: 0) }
        let status = poll(&descriptors, nfds_t(descriptors.count), POSIXSocket.milliseconds(until: wakeUp))
        if status < 0 {
            guard errno == EINTR else { throw .system(operation: "poll", errno: errno) }
            return
        }
        guard status > 0 else { return }
        // Accept before reading, so that every eviction happens before this round's frames
        // are queued for the driver.
        let acceptedIDs = descriptors[0].revents != 0 ? try acceptWaiting() : []
        for (index, identifier) in polledIDs.enumerated() where descriptors[1 + index].revents != 0 {
            service(identifier)
        }
        for identifier in acceptedIDs { service(identifier) }  // their first bytes are often already there
        peakQueuedEventCount = max(peakQueuedEventCount, events.count)
    }

    /// Accepts up to an eighth of the capacity per round, so a connection accepted in one
    /// round is read in that round and several more before a flood could make it the oldest.
    private func acceptWaiting() throws(TransportError) -> [Int] {
        var accepted: [Int] = []
        for _ in 0..<max(1, connectionCapacity / 8) {
            switch try socket.accept() {
            case .accepted(let socket):
                if connections.count >= connectionCapacity, !evictOldestUnbound() {
                    socket.close()  // every slot holds the bound connection
                    statistics.refusedAtCapacity += 1
                    continue
                }
                let identifier = nextIdentifier
                nextIdentifier += 1
                connections[identifier] = InboundConnection(identifier: identifier, socket: socket,
                                                            tagDeadline: .now + configuration.tagTimeout)
                statistics.accepted += 1
                statistics.peakOpenConnections = max(statistics.peakOpenConnections, connections.count)
                accepted.append(identifier)
            case .noneWaiting:
                return accepted
            case .outOfResources:
                // Out of descriptors: free one of ours if we can, or rest a moment rather than spin.
                if !evictOldestUnbound() {
                    acceptPausedUntil = .now + .milliseconds(100)
                    return accepted
                }
            }
        }
        return accepted
    }

    private func service(_ identifier: Int) {
        guard let connection = connections[identifier] else { return }
        let id = ConnectionID(rawValue: identifier)
        let result = connection.read(preamble: rendezvous.preamble, helloTimeout: configuration.helloTimeout)
        peakBufferedByteCount = max(peakBufferedByteCount, connection.peakBufferedByteCount)
        if result.presentedTag {
            statistics.admitted += 1
            events.append(.connected(id))
        }
        if let frame = result.frame { events.append(.frame(id, frame)) }
        switch result.failure {
        case nil:
            break
        case .refusedBeforeTag:
            remove(identifier)?.close()
            statistics.refusedTag += 1
        case .transport(let error):
            remove(identifier)?.close()
            events.append(.disconnected(id, error))
        case .closed:
            remove(identifier)?.close()
        }
    }

    // MARK: Closing

    private func closeExpired(at now: ContinuousClock.Instant) {
        for identifier in connections.keys.sorted() {
            guard let expiry = connections[identifier]?.expiry(at: now, readTimeout: configuration.readTimeout) else { continue }
            remove(identifier)?.close()
            let id = ConnectionID(rawValue: identifier)
            switch expiry {
            case .tag:
                statistics.tagTimedOut += 1
            case .hello:
                statistics.helloTimedOut += 1
                events.append(.disconnected(id, .notJoinedInTime))
            case .stalledFrame:
                events.append(.disconnected(id, .timedOut))
            case .linger:
                break
            }
        }
    }

    /// Closes the oldest connection that is not bound (one already being closed, if any, goes
    /// first). `false` when there is none. Oldest first means a new connection survives at
    /// least `capacity - 2` later arrivals, that is several rounds of reads at one eighth of
    /// the capacity accepted per round: it always gets its chance to present the tag and hello.
    private func evictOldestUnbound() -> Bool {
        var oldestClosing: Int?
        var oldestServing: Int?
        for (identifier, connection) in connections {
            switch connection.stage {
            case .closing: oldestClosing = min(identifier, oldestClosing ?? identifier)
            case .awaitingTag, .admitted: oldestServing = min(identifier, oldestServing ?? identifier)
            case .bound: break
            }
        }
        guard let identifier = oldestClosing ?? oldestServing, let connection = remove(identifier) else { return false }
        connection.close()
        switch connection.stage {
        case .awaitingTag:
            statistics.evictedBeforeTag += 1
        case .admitted:
            statistics.evictedAfterTag += 1
            events.append(.disconnected(ConnectionID(rawValue: identifier), .evicted))
        case .bound, .closing:
            break
        }
        return true
    }

    /// Takes a connection out of the listener.
    private func remove(_ identifier: Int) -> InboundConnection? {
        connections.removeValue(forKey: identifier)
    }

    /// Drops the queued events of a connection the driver closed.
    private func dropQueuedEvents(of connection: ConnectionID) {
        events.removeAll { $0.connection == connection }
    }

    /// Waits, at most until the last linger deadline, for closing connections to see the
    /// peer's end of stream, then closes them.
    private func finishClosing(_ closing: [InboundConnection]) {
        var open = closing
        while !open.isEmpty {
            let wakeUp = open.compactMap { $0.nextDeadline(readTimeout: configuration.readTimeout) }.min() ?? .now
            var descriptors = open.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            if poll(&descriptors, nfds_t(descriptors.count), POSIXSocket.milliseconds(until: wakeUp)) < 0, errno != EINTR { break }
            let now = ContinuousClock.now
            var stillOpen: [InboundConnection] = []
            for (index, connection) in open.enumerated() {
                let ended = descriptors[index].revents != 0
                    && connection.read(preamble: rendezvous.preamble, helloTimeout: configuration.helloTimeout).failure != nil
                if ended || connection.expiry(at: now, readTimeout: configuration.readTimeout) != nil {
                    connection.close()
                } else {
                    stillOpen.append(connection)
                }
            }
            open = stillOpen
        }
        for connection in open { connection.close() }
    }
}
