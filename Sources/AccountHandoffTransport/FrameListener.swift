#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff

/// The sender's side of the local transport: listens on a local address, admits connections
/// that present the rendezvous tag, and reports their frames as ``Event``s.
///
/// A connection that sends anything but the tag first, or nothing within the handshake
/// timeout, is closed before any session sees it. Admitted connections are reported
/// separately, so an app can keep a pending session alive while it drops a connection whose
/// frames the session ignored.
///
/// It is not thread-safe: use it from one thread (the app's session loop).
public final class FrameListener {
    /// Identifies one admitted connection.
    public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
        let rawValue: Int
        /// `#n`, numbered from 1 in order of arrival.
        public var description: String { "#\(rawValue)" }
    }

    /// What happened on the listener.
    public enum Event: Hashable, Sendable {
        /// A connection presented the right tag and may now send frames.
        case connected(ConnectionID)
        /// A whole frame arrived on an admitted connection.
        case frame(ConnectionID, [UInt8])
        /// An admitted connection ended (closed, stalled, or broke the framing); it is closed.
        case disconnected(ConnectionID, TransportError)
    }

    private struct Pending {
        let socket: POSIXSocket
        var received: [UInt8]
        let deadline: ContinuousClock.Instant
    }

    /// Where receivers connect; put ``TCPRendezvous/token`` in the QR.
    public let rendezvous: TCPRendezvous
    /// The timeouts and limits in force.
    public let configuration: TransportConfiguration
    /// Connections dropped because they did not present the tag in time or came beyond the limit.
    public private(set) var droppedConnectionCount = 0

    private let socket: POSIXSocket
    private var pending: [Int: Pending] = [:]
    private var admitted: [Int: FrameConnection] = [:]
    private var events: [Event] = []
    private var nextIdentifier = 1

    /// Listens on `address:port` (port 0 picks a free one) with a tag drawn from `random`.
    ///
    /// - Throws: ``TransportError/addressUnavailable(errno:)`` when the address cannot be bound.
    public convenience init(address: IPv4Address = .loopback, port: UInt16 = 0, random: RandomSource,
                            configuration: TransportConfiguration = .standard) throws(TransportError) {
        var tag = [UInt8](repeating: 0, count: TCPRendezvous.tagByteCount)
        tag.withUnsafeMutableBytes { random.fill($0) }
        try self.init(address: address, port: port, tag: tag, configuration: configuration)
    }

    /// Listens on `address:port` (port 0 picks a free one) and admits connections presenting `tag`.
    ///
    /// - Throws: ``TransportError/addressUnavailable(errno:)`` when the address cannot be bound;
    ///   ``TransportError/unsupportedRendezvous`` for a tag that is not 6 bytes.
    public init(address: IPv4Address = .loopback, port: UInt16 = 0, tag: [UInt8],
                configuration: TransportConfiguration = .standard) throws(TransportError) {
        guard tag.count == TCPRendezvous.tagByteCount else { throw .unsupportedRendezvous }
        let socket = try POSIXSocket.makeTCP()
        try socket.listen(address: address, port: port, backlog: Int32(configuration.maximumConnections))
        self.socket = socket
        self.configuration = configuration
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
            dropExpired()
            if !events.isEmpty { return events.removeFirst() }
            guard socket.isOpen else { throw .closedLocally }
            if polled, ContinuousClock.now >= deadline { return nil }
            var wakeUp = deadline
            for entry in pending.values { wakeUp = min(wakeUp, entry.deadline) }
            for connection in admitted.values { if let stall = connection.stallDeadline { wakeUp = min(wakeUp, stall) } }
            let pendingIDs = Array(pending.keys)
            let admittedIDs = Array(admitted.keys)
            var descriptors = [pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)]
            descriptors += pendingIDs.map { pollfd(fd: pending[$0]!.socket.descriptor, events: Int16(POLLIN), revents: 0) }
            descriptors += admittedIDs.map { pollfd(fd: admitted[$0]!.descriptor, events: Int16(POLLIN), revents: 0) }
            let status = poll(&descriptors, nfds_t(descriptors.count), POSIXSocket.milliseconds(until: wakeUp))
            polled = true
            if status < 0 {
                guard errno == EINTR else { throw .system(operation: "poll", errno: errno) }
                continue
            }
            if status == 0 { continue }
            if descriptors[0].revents != 0 { try acceptWaiting() }
            for (index, identifier) in pendingIDs.enumerated() where descriptors[1 + index].revents != 0 {
                readPending(identifier)
            }
            for (index, identifier) in admittedIDs.enumerated() where descriptors[1 + pendingIDs.count + index].revents != 0 {
                readAdmitted(identifier)
            }
        }
    }

    /// Sends one frame on an admitted connection.
    ///
    /// - Throws: ``TransportError/closedLocally`` for a connection that is no longer open, and
    ///   the errors of ``FrameConnection/send(_:)``.
    public func send(_ frame: [UInt8], to connection: ConnectionID) throws(TransportError) {
        guard let target = admitted[connection.rawValue] else { throw .closedLocally }
        try target.send(frame)
    }

    /// Closes one admitted connection cleanly; no event follows for it.
    public func disconnect(_ connection: ConnectionID) {
        admitted.removeValue(forKey: connection.rawValue)?.close()
    }

    /// Stops listening and closes every connection (admitted ones cleanly). Idempotent.
    public func close() {
        socket.close()
        for entry in pending.values { entry.socket.close() }
        pending.removeAll()
        for connection in admitted.values { connection.close() }
        admitted.removeAll()
    }

    /// Connections open right now, admitted or still presenting the tag.
    public var openConnectionCount: Int { pending.count + admitted.count }

    // MARK: Internals

    private func acceptWaiting() throws(TransportError) {
        while let accepted = try socket.accept() {
            guard openConnectionCount < configuration.maximumConnections else {
                accepted.close()
                droppedConnectionCount += 1
                continue
            }
            pending[nextIdentifier] = Pending(socket: accepted, received: [], deadline: .now + configuration.handshakeTimeout)
            nextIdentifier += 1
        }
    }

    private func readPending(_ identifier: Int) {
        guard var entry = pending[identifier] else { return }
        let chunk: [UInt8]?
        do { chunk = try entry.socket.readAvailable() } catch {
            dropPending(identifier)
            return
        }
        guard let chunk else { return }  // woken without data
        guard !chunk.isEmpty else {
            dropPending(identifier)  // closed before presenting the tag
            return
        }
        entry.received += chunk
        // Compare what arrived so far, so a stray connection is dropped at its first wrong byte.
        let expected = rendezvous.preamble
        let checked = min(entry.received.count, expected.count)
        guard entry.received[0..<checked].elementsEqual(expected[0..<checked]) else {
            dropPending(identifier)
            return
        }
        guard entry.received.count >= expected.count else {
            pending[identifier] = entry
            return
        }
        pending.removeValue(forKey: identifier)
        var decoder = FrameStreamDecoder()
        decoder.append(entry.received[expected.count...])
        admitted[identifier] = FrameConnection(socket: entry.socket, decoder: decoder, configuration: configuration)
        events.append(.connected(ConnectionID(rawValue: identifier)))
        collectFrames(identifier)
    }

    private func readAdmitted(_ identifier: Int) {
        guard let connection = admitted[identifier] else { return }
        do {
            try connection.readOnce()
        } catch {
            end(identifier, error)
            return
        }
        collectFrames(identifier)
    }

    private func collectFrames(_ identifier: Int) {
        guard let connection = admitted[identifier] else { return }
        do {
            while let frame = try connection.nextBufferedFrame() {
                events.append(.frame(ConnectionID(rawValue: identifier), frame))
            }
        } catch {
            end(identifier, error)
        }
    }

    private func end(_ identifier: Int, _ error: TransportError) {
        guard let connection = admitted.removeValue(forKey: identifier) else { return }
        connection.abandon()
        events.append(.disconnected(ConnectionID(rawValue: identifier), error))
    }

    private func dropPending(_ identifier: Int) {
        guard let entry = pending.removeValue(forKey: identifier) else { return }
        entry.socket.close()
        droppedConnectionCount += 1
    }

    private func dropExpired() {
        let now = ContinuousClock.now
        for (identifier, entry) in pending where entry.deadline <= now { dropPending(identifier) }
        for (identifier, connection) in admitted where connection.isStalled { end(identifier, .timedOut) }
    }
}
