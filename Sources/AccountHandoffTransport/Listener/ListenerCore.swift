import AccountHandoff

/// The state and the work of a ``FrameListener``, on the loop thread only: accepting,
/// admission (Spec 11.4), reading one frame per connection as the session asks for events,
/// the hello gate, deadlines and eviction (Spec 11.6).
final class ListenerCore: PollHandler, DeadlineTarget, @unchecked Sendable {
    // Safety of @unchecked Sendable: it is handed to the event loop's thread and only ever
    // touched there (``FrameListener`` passes it into `EventLoop.execute`).
    /// What the session is handed next.
    private enum Event {
        case frame(Int)
        case left(Int)
        /// A typed connection waits for its run (Spec 11.10).
        case typed(Int)
        /// The local network's name of this nameplate is taken.
        case nameTaken(TypedCode.Nameplate)
    }

    let loop: EventLoop
    let configuration: TransportConfiguration
    let capacity: Int
    private let listening: POSIXSocket
    private var listeningToken: UInt64?
    private let random = SystemRandomSource()

    private var keys: TransportKeys?
    private var connections: [Int: InboundConnection] = [:]
    /// Connections the driver closed after sending to them, lingering so the bytes arrive.
    private var lingering: [ObjectIdentifier: LoopConnection] = [:]
    private var nextIdentifier = 1
    /// Events of bound connections go first, so a flood never delays the receiver's frames.
    private var boundEvents: [Event] = []
    /// The other events and the hellos at the gate, each with its place in the order of
    /// arrival: a frame never passes a hello that came before it (Spec 11.6).
    private var events: [(arrival: Int, event: Event)] = []
    private var waitingHellos: [(arrival: Int, connection: Int)] = []
    private var arrivals = 0
    private var gate: HelloRateGate
    /// The connection whose frame the session holds.
    private var withSession: Int?
    /// The driver waiting in ``FrameListener/receive()``.
    private var waiter = ReceiveWaiter()
    private var closed = false
    private var failure: TransportError?
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []
    private var acceptPausedUntil: ContinuousClock.Instant?
    private var pendingWake: ContinuousClock.Instant?
    /// The connection waiting at the relay, when the code names one (Spec 11.7).
    private var relayRoom: RelayWaitingRoom?
    /// The typed way's listening socket, when the listener has one (Spec 11.10).
    private var typedAcceptor: TypedAcceptor?
    /// The nameplate the session serves now; typed connections are accepted only meanwhile.
    private(set) var typedNameplate: TypedCode.Nameplate?
    /// Whether the typed listening socket accepts for it (the route `localNetwork` is offered).
    private var typedOnLocalNetwork = false
    /// The connection waiting at the relay with the nameplate's token (Spec 11.10, 12.8).
    private var typedRelayRoom: RelayWaitingRoom?
    /// Typed connections waiting for their turn at the run gate, oldest first.
    private var waitingTypedRuns: [Int] = []
    private var typedGate: HelloRateGate

    private(set) var statistics = ListenerStatistics()
    /// The largest number of bytes any connection buffered at once (test hook).
    private(set) var peakBufferedByteCount = 0
    /// The most events queued for the session at once (test hook).
    private(set) var peakQueuedEventCount = 0

    init(loop: EventLoop, listening: POSIXSocket, configuration: TransportConfiguration, capacity: Int, keys: TransportKeys?) {
        self.loop = loop
        self.listening = listening
        self.configuration = configuration
        self.capacity = capacity
        self.keys = keys
        gate = HelloRateGate(perSecond: configuration.hellosPerSecond)
        typedGate = HelloRateGate(perSecond: configuration.hellosPerSecond)
    }

    /// Starts accepting (on the loop thread).
    func start() {
        do { listeningToken = try loop.register(listening.descriptor, interest: .readable, handler: self) } catch {
            fail(error)
        }
    }

    /// Starts waiting at `relay` (on the loop thread), once there are keys.
    func attach(_ room: RelayWaitingRoom) {
        relayRoom = room
        guard !closed, failure == nil else {
            room.stop()
            return
        }
        if let keys { room.setKeys(keys) }
        room.update()
    }

    /// Whether a connection should wait at the relay: the listener is open, its session waits
    /// for a hello (no connection is bound), and fewer than `limit` relayed connections are open.
    /// With `typed`, for the typed way: a nameplate is served, and typed ones are counted (Spec 11.10).
    func wantsRelayConnection(limit: Int, typed: Bool = false) -> Bool {
        guard !closed, failure == nil, typed ? typedNameplate != nil : keys != nil else { return false }
        var relayed = 0
        for connection in connections.values {
            if connection.isBound { return false }
            if connection.viaRelay, connection.isTyped == typed { relayed += 1 }
        }
        return relayed < limit
    }

    var openConnectionCount: Int { connections.count }
    /// The listening socket's and the connections' descriptors, for tests.
    var descriptors: [Int32] {
        [listening.descriptor] + (typedAcceptor.map { [$0.socket.descriptor] } ?? []) + connections.values.map(\.link.socket.descriptor)
    }
    var boundConnections: [FramePeer] { connections.values.filter(\.isBound).map(\.peer).sorted { $0.id < $1.id } }

    // MARK: Keys (Spec 11.8)

    /// Serves `keys` from now on. Connections challenged or admitted under other keys, and not
    /// bound, belong to a QR that is gone: they are closed.
    func setKeys(_ newKeys: TransportKeys) {
        if let keys, keys.sessionHint == newKeys.sessionHint { return }
        let renewing = keys != nil
        keys = newKeys
        let now = ContinuousClock.now
        for connection in connections.values.sorted(by: { $0.identifier < $1.identifier }) {
            switch connection.stage {
            case .awaitingKeys:
                challenge(connection)
            case .challenged, .admitted:
                // Typed connections go with their nameplate (serveTyped), not with the QR's keys.
                guard renewing, !connection.isTyped else { continue }
                statistics.closedForRenewal += 1
                end(connection, reporting: connection.knownToSession)
            case .bound:
                break
            }
        }
        relayRoom?.setKeys(newKeys)
        deliver(now: now)
    }

    // MARK: Accepting

    func handle(_ event: PollEvent) {
        guard !closed else { return }
        for _ in 0..<max(1, capacity / 8) {
            let outcome: POSIXSocket.AcceptOutcome
            do { outcome = try listening.accept() } catch {
                fail(error)
                return
            }
            switch outcome {
            case .accepted(let socket):
                take(socket)
            case .noneWaiting:
                return
            case .outOfResources:
                // Out of descriptors: free one of ours if we can, or rest a moment rather than spin.
                if !evictOne() {
                    pauseAccepting()
                    return
                }
            }
        }
    }

    /// Serves a connected socket: one just accepted, or one end of a relayed connection
    /// (Spec 11.7), which is admitted exactly like an accepted one; or, with `typed`, one the
    /// typed listening socket accepted for that nameplate (Spec 11.10).
    func take(_ socket: POSIXSocket, typed: TypedCode.Nameplate? = nil, from address: IPv4Address? = nil) {
        guard !closed else {
            socket.close()
            return
        }
        if connections.count + lingering.count >= capacity, !evictOne() {
            socket.discardReadable()
            socket.close()  // no slot may make room (Spec 11.6)
            statistics.refusedAtCapacity += 1
            return
        }
        let link: LoopConnection
        do { link = try LoopConnection(loop: loop, socket: socket) } catch { return }
        serve(link, viaRelay: false, typed: typed, from: address)
    }

    /// Serves a connection the relay paired (Spec 11.7): its admission deadline runs from now,
    /// the moment the relay said `ok`; or, with `typed`, a typed connection (Spec 11.10).
    func takePaired(_ link: LoopConnection, typed: TypedCode.Nameplate? = nil) {
        guard !closed else {
            link.closeNow()
            return
        }
        if connections.count + lingering.count >= capacity, !evictOne() {
            link.closeNow()
            statistics.refusedAtCapacity += 1
            return
        }
        statistics.relayPaired += 1
        serve(link, viaRelay: true, typed: typed)
    }

    private func serve(_ link: LoopConnection, viaRelay: Bool, typed: TypedCode.Nameplate? = nil, from address: IPv4Address? = nil) {
        let now = ContinuousClock.now
        let connection = InboundConnection(identifier: nextIdentifier, link: link, viaRelay: viaRelay, typedNameplate: typed,
                                           admissionDeadline: now + configuration.admissionTimeout, owner: self)
        nextIdentifier += 1
        connection.typedPeerAddress = address
        link.delegate = connection
        connections[connection.identifier] = connection
        statistics.accepted += 1
        statistics.peakOpenConnections = max(statistics.peakOpenConnections, connections.count + lingering.count)
        if typed != nil {
            startTypedRun(connection, now: now)
            return
        }
        connection.scheduleWake(at: connection.admissionDeadline)
        if keys != nil { challenge(connection) }
    }

    private func pauseAccepting() {
        guard let token = listeningToken else { return }
        try? loop.setInterest(listening.descriptor, token: token, interest: [])
        let resume = ContinuousClock.now + .milliseconds(100)
        acceptPausedUntil = resume
        scheduleWake(at: resume)
    }

    // MARK: The typed way (Spec 11.10)

    /// Accepts typed connections on `acceptor`'s socket from now on (on the loop thread).
    func attach(_ acceptor: TypedAcceptor) {
        typedAcceptor = acceptor
        guard !closed, failure == nil else { return acceptor.stop() }
        acceptor.start()
    }

    /// Waits at the relay for typed connections while a nameplate is served for the relay route.
    func attachTyped(_ room: RelayWaitingRoom) {
        typedRelayRoom = room
        guard !closed, failure == nil else { return room.stop() }
    }

    /// The relay paired a typed connection (Spec 11.10): no admission; it waits for its run.
    func takeTypedPaired(_ link: LoopConnection) {
        guard let nameplate = typedNameplate else { return link.closeNow() }
        takePaired(link, typed: nameplate)
    }

    /// A connection reached the typed listening socket: without a nameplate served for the
    /// local network it is closed at once; from an address that has
    /// ``TransportConfiguration/maximumTypedConnectionsPerAddress`` typed connections open and
    /// not bound, too (T10: one address cannot hold the session's pending runs); otherwise it
    /// waits for its run.
    func takeTyped(_ socket: POSIXSocket) {
        guard !closed, typedOnLocalNetwork, let nameplate = typedNameplate else {
            socket.close()
            statistics.typedRefused += 1
            return
        }
        let address = socket.peerAddress()
        if let address, connections.values.count(where: { $0.typedPeerAddress == address && !$0.isBound })
            >= configuration.maximumTypedConnectionsPerAddress {
            socket.close()
            statistics.typedRefusedPerAddress += 1
            return
        }
        take(socket, typed: nameplate, from: address)
    }

    /// A typed connection needs no admission: its run's deadline starts now (the bind clock,
    /// standing still while a frame of it is with the session), and it waits for its turn at
    /// the run gate, which hands the session at most ``TransportConfiguration/hellosPerSecond``
    /// runs per second, apart from the hellos' gate so that a flood of typed connections
    /// (which need no QR) never delays a QR's receiver.
    private func startTypedRun(_ connection: InboundConnection, now: ContinuousClock.Instant) {
        connection.stage = .admitted
        connection.bindBudget = configuration.bindTimeout
        connection.bindRunningSince = now
        connection.scheduleWake(at: now + configuration.bindTimeout)
        connection.link.setReading(true)
        statistics.typedAccepted += 1
        waitingTypedRuns.append(connection.identifier)
        deliver(now: now)
    }

    /// The session serves `nameplate` now, or none (`nil`): typed connections that came for
    /// another nameplate and are not bound are closed, after the frames sent to them (a
    /// `pakeRefused`) left; no event follows for them (the session dropped them already).
    func serveTyped(_ nameplate: TypedCode.Nameplate?, onLocalNetwork: Bool, relayLine: [UInt8]?) {
        typedNameplate = nameplate
        typedOnLocalNetwork = nameplate != nil && onLocalNetwork
        typedRelayRoom?.setLine(nameplate == nil ? nil : relayLine)
        for connection in connections.values.sorted(by: { $0.identifier < $1.identifier })
        where connection.isTyped && !connection.isBound && connection.typedNameplate != nameplate {
            statistics.typedRetired += 1
            disconnect(connection.peer)
        }
    }

    /// The announcer found `nameplate`'s name taken: the session hears of it while it still
    /// serves that nameplate.
    func nameTaken(_ nameplate: TypedCode.Nameplate) {
        guard !closed, nameplate == typedNameplate else { return }
        queue(.nameTaken(nameplate), bound: false)
        deliver(now: .now)
    }

    // MARK: Admission (Spec 11.4)

    private func challenge(_ connection: InboundConnection) {
        guard let keys else { return }
        var nonce = [UInt8](repeating: 0, count: TransportKeys.challengeNonceByteCount)
        nonce.withUnsafeMutableBytes { random.fill($0) }
        connection.stage = .challenged(nonce: nonce, keys: keys, received: [])
        connection.link.write(Admission.challenge(keys: keys, nonce: nonce), deadline: connection.admissionDeadline)
        connection.link.setReading(true)
    }

    func readable(_ connection: InboundConnection) {
        guard connections[connection.identifier] === connection else { return }
        if case .challenged(let nonce, let keys, var received) = connection.stage {
            let chunk: [UInt8]?
            do { chunk = try connection.link.read(maximum: Admission.responseByteCount - received.count) } catch {
                refuse(connection)
                return
            }
            guard let chunk else { return }
            // A stray or hostile connection is dropped at its first wrong byte of the magic.
            let magicEnd = min(Admission.responseMagic.count, received.count + chunk.count)
            guard !chunk.isEmpty,
                  (received + chunk).prefix(magicEnd).elementsEqual(Admission.responseMagic.prefix(magicEnd)) else {
                refuse(connection)
                return
            }
            received += chunk
            connection.peakBufferedByteCount = max(connection.peakBufferedByteCount, received.count)
            guard received.count == Admission.responseByteCount else {
                connection.stage = .challenged(nonce: nonce, keys: keys, received: received)
                return
            }
            guard Admission.accepts(received, keys: keys, nonce: nonce) else {
                refuse(connection)
                return
            }
            let now = ContinuousClock.now
            connection.stage = .admitted
            connection.bindBudget = configuration.bindTimeout
            connection.bindRunningSince = now
            connection.scheduleWake(at: now + configuration.bindTimeout)
            statistics.admitted += 1
        }
        guard !connection.isBeforeAdmission else { return }
        readFrame(connection)
    }

    private func refuse(_ connection: InboundConnection) {
        statistics.refusedAdmission += 1
        end(connection, reporting: false)
    }

    // MARK: Frames

    /// Reads until one whole frame arrived or the socket has nothing more; never more than
    /// the frame still needs, so a connection holds at most one frame and its prefix.
    private func readFrame(_ connection: InboundConnection) {
        guard connection.frameState == .none else { return }
        while true {
            do throws(TransportError) {
                guard let chunk = try connection.link.read(maximum: connection.decoder.bytesToCompleteFrame) else { return }
                guard !chunk.isEmpty else { throw .closedByPeer }
                connection.decoder.append(chunk)
                connection.peakBufferedByteCount = max(connection.peakBufferedByteCount, connection.decoder.bufferedByteCount)
                peakBufferedByteCount = max(peakBufferedByteCount, connection.peakBufferedByteCount)
                if connection.frameStart == nil {
                    let now = ContinuousClock.now
                    connection.frameStart = now
                    connection.scheduleWake(at: now + configuration.readTimeout)
                }
                if let frame = try connection.decoder.nextFrame() {
                    connection.frameStart = nil
                    arrived(frame, on: connection)
                    return
                }
            } catch {
                // A relayed connection that breaks the framing before the session saw a frame of
                // it: the relay garbled it (or someone who saw the QR sent junk); the person hears
                // of it (Spec 11.7).
                if connection.viaRelay, !connection.knownToSession, Self.breaksFraming(error) { relayRoom?.noteGarbledConnection() }
                end(connection, reporting: connection.knownToSession)
                return
            }
        }
    }

    /// Whether `error` is a length prefix the framing does not allow (Spec 11.5).
    private static func breaksFraming(_ error: TransportError) -> Bool {
        if case .oversizedFrame = error { return true }
        return error == .emptyFrame
    }

    /// A whole frame: it waits for the session (a hello of an unbound connection for its turn
    /// at the gate), and the connection is not read again until the session is done with it.
    private func arrived(_ frame: [UInt8], on connection: InboundConnection) {
        let now = ContinuousClock.now
        let isHello = frame.count >= 2 && frame[1] == MessageType.hello.rawValue
        if isHello, connection.isTyped, !connection.isBound {
            // A typed connection carries the typed way's frames only: a hello is not let through the gate.
            statistics.closedForSecondHello += 1
            end(connection, reporting: connection.knownToSession)
            return
        }
        if isHello, connection.isAdmitted {
            guard connection.helloCount == 0 else {
                statistics.closedForSecondHello += 1
                end(connection, reporting: connection.knownToSession)
                return
            }
            connection.helloCount = 1
            connection.frameState = .waitingAsHello(since: now)
            waitingHellos.append((nextArrival(), connection.identifier))
            statistics.hellosWaiting += 1
            statistics.peakHellosWaiting = max(statistics.peakHellosWaiting, statistics.hellosWaiting)
        } else {
            connection.frameState = .queued
            queue(.frame(connection.identifier), bound: connection.isBound)
        }
        connection.frame = frame
        connection.replyDeadline = nil  // T11: the peer answered
        connection.link.setReading(false)
        connection.stopBindClock(now: now)
        peakQueuedEventCount = max(peakQueuedEventCount, boundEvents.count + events.count + waitingHellos.count)
        deliver(now: now)
    }

    // MARK: The session's side

    /// The driver asks for the next event: the frame it had is processed now.
    func receive(_ identifier: UInt64, _ continuation: CheckedContinuation<FrameChannelEvent?, any Error>) {
        if let failure {
            continuation.resume(throwing: failure)
            return
        }
        guard !closed else {
            continuation.resume(returning: nil)
            return
        }
        guard waiter.admits(continuation) else { return }
        let now = ContinuousClock.now
        sessionFinishedFrame(now: now)
        waiter.wait(identifier, continuation)
        deliver(now: now)
    }

    func cancelReceive(_ identifier: UInt64) {
        waiter.cancel(identifier)
    }

    private func sessionFinishedFrame(now: ContinuousClock.Instant) {
        guard let identifier = withSession else { return }
        withSession = nil
        guard let connection = connections[identifier], connection.frameState == .withSession else { return }
        connection.frameState = .none
        connection.startBindClock(now: now)
        if let deadline = connection.nextDeadline(readTimeout: configuration.readTimeout) { connection.scheduleWake(at: deadline) }
        connection.link.setReading(true)
    }

    /// Hands the next event to a waiting driver, if there is one and an event may go.
    private func deliver(now: ContinuousClock.Instant) {
        guard waiter.isWaiting, let event = nextEvent(now: now) else { return }
        waiter.resume(returning: event)
    }

    private func nextArrival() -> Int {
        arrivals += 1
        return arrivals
    }

    private func queue(_ event: Event, bound: Bool) {
        if bound { boundEvents.append(event) } else { events.append((nextArrival(), event)) }
    }

    /// The bound connections' events first; then the others in the order they arrived, a
    /// hello only when the gate lets one through (Spec 11.6). While the gate holds the oldest
    /// hello, later frames may go: they cost no X25519 and the hello could not go anyway.
    private func nextEvent(now: ContinuousClock.Instant) -> FrameChannelEvent? {
        if !boundEvents.isEmpty { return handOver(boundEvents.removeFirst()) }
        guard let hello = waitingHellos.first, events.first.map({ hello.arrival < $0.arrival }) ?? true else {
            return events.isEmpty ? nextTypedRun(now: now) : handOver(events.removeFirst().event)
        }
        if let opening = gate.nextOpening(now: now) {
            if !events.isEmpty { return handOver(events.removeFirst().event) }
            if let run = nextTypedRun(now: now) { return run }
            scheduleWake(at: opening)
            return nil
        }
        let identifier = hello.connection
        waitingHellos.removeFirst()
        gate.record(now)
        statistics.hellosHandedOver += 1
        statistics.hellosWaiting -= 1
        if let connection = connections[identifier], case .waitingAsHello(let since) = connection.frameState {
            statistics.longestHelloWait = max(statistics.longestHelloWait, now - since)
        }
        return handOver(.frame(identifier))
    }

    /// The oldest typed connection waiting for its run, when the run gate lets one through
    /// (Spec 11.10 T3, a gate of its own beside the hellos').
    private func nextTypedRun(now: ContinuousClock.Instant) -> FrameChannelEvent? {
        guard let identifier = waitingTypedRuns.first else { return nil }
        if let opening = typedGate.nextOpening(now: now) {
            scheduleWake(at: opening)
            return nil
        }
        waitingTypedRuns.removeFirst()
        typedGate.record(now)
        statistics.typedRunsHandedOver += 1
        return handOver(.typed(identifier))
    }

    private func handOver(_ event: Event) -> FrameChannelEvent? {
        switch event {
        case .left(let identifier):
            return .peerLeft(FramePeer(id: identifier))
        case .nameTaken(let nameplate):
            return .typedNameTaken(nameplate)
        case .typed(let identifier):
            guard let connection = connections[identifier] else { return nil }
            connection.knownToSession = true
            return .typedConnection(connection.peer, route: connection.viaRelay ? .relay : .localNetwork)
        case .frame(let identifier):
            guard let connection = connections[identifier], let frame = connection.frame else { return nil }
            connection.frame = nil
            connection.frameState = .withSession
            connection.knownToSession = true
            withSession = identifier
            statistics.framesHandedOver += 1
            return .frame(frame, from: connection.peer)
        }
    }

    func bind(_ peer: FramePeer) {
        guard let connection = connections[peer.id], connection.isAdmitted,
              connections.values.count(where: \.isBound) < FrameListener.maximumBoundConnections else { return }
        connection.stage = .bound
        connection.bindRunningSince = nil
        relayRoom?.update()
        typedRelayRoom?.update()
    }

    func noteIgnoredFrame(from peer: FramePeer) {
        guard let connection = connections[peer.id], connection.isAdmitted else { return }
        connection.ignoredFrameCount += 1
        guard connection.ignoredFrameCount >= configuration.maximumIgnoredFrames else { return }
        statistics.closedForIgnoredFrames += 1
        end(connection, reporting: false)
    }

    func send(_ frame: [UInt8], to peer: FramePeer, _ continuation: CheckedContinuation<Void, any Error>) {
        guard !closed, let connection = connections[peer.id], connection.link.isOpen else {
            continuation.resume(throwing: TransportError.closedLocally)
            return
        }
        let bytes: [UInt8]
        do { bytes = try FrameStream.encode(frame) } catch {
            continuation.resume(throwing: error)
            return
        }
        connection.link.write(bytes, deadline: .now + configuration.writeTimeout, resuming: continuation)
        if connection.isTyped, !connection.isBound, frame.count >= 2, frame[1] == MessageType.pakeInit.rawValue {
            // T11: an honest receiver answers its run's pakeInit at once.
            let due = ContinuousClock.now + configuration.typedReplyTimeout
            connection.replyDeadline = due
            connection.scheduleWake(at: due)
        }
    }

    /// Closes one connection for the driver: no event follows for it. One that was sent
    /// frames lingers so they reach the peer.
    func disconnect(_ peer: FramePeer) {
        guard let connection = connections[peer.id] else { return }
        forget(connection)
        let link = connection.link
        guard link.hasWritten else {
            link.closeNow()
            return
        }
        let key = ObjectIdentifier(link)
        lingering[key] = link
        link.closeGracefully(linger: configuration.closeLinger) { [weak self] in
            self?.lingering[key] = nil
            self?.finishClosingIfDone()
        }
    }

    /// Stops listening and closes every connection, those that were sent frames cleanly;
    /// `completion` runs once all are closed.
    func close(_ completion: CheckedContinuation<Void, Never>) {
        closeWaiters.append(completion)
        guard !closed else {
            finishClosingIfDone()
            return
        }
        closed = true
        stopListening()
        relayRoom?.stop()
        typedRelayRoom?.stop()
        typedAcceptor?.stop()
        waiter.resume(returning: nil)
        for connection in connections.values.sorted(by: { $0.identifier < $1.identifier }) {
            forget(connection)
            let link = connection.link
            if link.hasWritten {
                let key = ObjectIdentifier(link)
                lingering[key] = link
                link.closeGracefully(linger: configuration.closeLinger) { [weak self] in
                    self?.lingering[key] = nil
                    self?.finishClosingIfDone()
                }
            } else {
                link.closeNow()
            }
        }
        finishClosingIfDone()
    }

    /// Closes everything at once (the listener was released without ``close(_:)``).
    func abandon() {
        closed = true
        stopListening()
        relayRoom?.stop()
        typedRelayRoom?.stop()
        typedAcceptor?.stop()
        for connection in connections.values { forget(connection); connection.link.closeNow() }
        for link in lingering.values { link.closeNow() }
        lingering.removeAll()
        waiter.resume(returning: nil)
    }

    private func finishClosingIfDone() {
        guard closed, lingering.isEmpty else { return }
        let waiters = closeWaiters
        closeWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    private func stopListening() {
        if let token = listeningToken {
            loop.unregister(listening.descriptor, token: token)
            listeningToken = nil
        }
        listening.closeListening()
    }

    private func fail(_ error: TransportError) {
        guard failure == nil else { return }
        failure = error
        stopListening()
        relayRoom?.stop()
        typedRelayRoom?.stop()
        typedAcceptor?.stop()
        waiter.resume(throwing: error)
    }

    // MARK: Ending connections

    /// Takes a connection out of the listener and everything queued for it.
    private func forget(_ connection: InboundConnection) {
        let identifier = connection.identifier
        guard connections.removeValue(forKey: identifier) != nil else { return }
        switch connection.frameState {
        case .waitingAsHello:
            waitingHellos.removeAll { $0.connection == identifier }
            statistics.hellosWaiting -= 1
        case .queued:
            events.removeAll { if case .frame(identifier) = $0.event { true } else { false } }
            boundEvents.removeAll { if case .frame(identifier) = $0 { true } else { false } }
        case .none, .withSession:
            break
        }
        connection.frame = nil
        waitingTypedRuns.removeAll { $0 == identifier }
        if connection.viaRelay {
            relayRoom?.update()
            typedRelayRoom?.update()
        }
    }

    /// Closes a connection at once; the session hears of it when it knew it.
    private func end(_ connection: InboundConnection, reporting: Bool) {
        guard connections[connection.identifier] === connection else { return }
        forget(connection)
        connection.link.closeNow()
        guard reporting, !closed else { return }
        queue(.left(connection.identifier), bound: connection.isBound)
        deliver(now: .now)
    }

    func failed(_ connection: InboundConnection, _ error: TransportError) {
        end(connection, reporting: connection.knownToSession)
    }

    /// Closes the connection that should make room (see ``InboundConnection/evictionRank``),
    /// a lingering one first. `false` when none may be closed.
    private func evictOne() -> Bool {
        if let (key, link) = lingering.first {
            lingering[key] = nil
            link.closeNow()
            return true
        }
        var chosen: (connection: InboundConnection, rank: Int)?
        for connection in connections.values {
            guard let rank = connection.evictionRank else { continue }
            if let current = chosen, (current.rank, current.connection.identifier) <= (rank, connection.identifier) { continue }
            chosen = (connection, rank)
        }
        guard let chosen = chosen?.connection else { return false }
        if chosen.isBeforeAdmission { statistics.evictedBeforeAdmission += 1 } else { statistics.evictedAfterAdmission += 1 }
        end(chosen, reporting: chosen.knownToSession)
        return true
    }

    // MARK: Deadlines

    func deadlineReached(_ connection: InboundConnection, now: ContinuousClock.Instant) {
        guard connections[connection.identifier] === connection else { return }
        switch connection.stage {
        case .awaitingKeys, .challenged:
            if connection.admissionDeadline <= now {
                statistics.admissionTimedOut += 1
                end(connection, reporting: false)
                return
            }
        case .admitted, .bound:
            // Deadlines stand still while a frame of the connection is with the session.
            guard connection.frameState == .none else { return }
            if let deadline = connection.bindDeadline, deadline <= now {
                statistics.bindTimedOut += 1
                end(connection, reporting: connection.knownToSession)
                return
            }
            if let due = connection.replyDeadline, due <= now, !connection.isBound {
                statistics.typedReplyTimedOut += 1
                end(connection, reporting: connection.knownToSession)
                return
            }
            if let start = connection.frameStart, start + configuration.readTimeout <= now {
                end(connection, reporting: connection.knownToSession)
                return
            }
        }
        if let next = connection.nextDeadline(readTimeout: configuration.readTimeout) { connection.scheduleWake(at: next) }
    }

    func deadlineReached(now: ContinuousClock.Instant) {
        pendingWake = nil
        if let resume = acceptPausedUntil {
            if resume <= now {
                acceptPausedUntil = nil
                if let token = listeningToken { try? loop.setInterest(listening.descriptor, token: token, interest: .readable) }
            } else {
                scheduleWake(at: resume)
            }
        }
        deliver(now: now)
    }

    private func scheduleWake(at instant: ContinuousClock.Instant) {
        if let pendingWake, pendingWake <= instant { return }
        pendingWake = instant
        loop.wake(self, at: instant)
    }
}
