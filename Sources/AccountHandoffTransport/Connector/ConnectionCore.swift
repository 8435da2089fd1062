import AccountHandoff

/// The receiver's one connection to a sender, on the loop thread only: connect, admission
/// (Spec 11.4, the receiver's half), then frames read one at a time as the session asks.
final class ConnectionCore: LoopConnectionDelegate, DeadlineTarget, @unchecked Sendable {
    // Safety of @unchecked Sendable: it is handed to the event loop's thread and only ever
    // touched there (``ConnectionFrameChannel`` passes it into `EventLoop.execute`).

    private enum Phase {
        /// Connecting, then reading the challenge; `admitted` is resumed once.
        case admitting(received: [UInt8], deadline: ContinuousClock.Instant?)
        /// Frames flow.
        case open
        /// The peer is gone: `.peerLeft` is the next event once the frames before it went.
        case ended
        /// Closed by this side.
        case closed
    }

    static let peer = FramePeer(id: 0)

    /// How a connection through the relay is made again when the relay garbles it after
    /// admission, before the sender's first frame (Spec 11.7), and who hears of each attempt.
    struct RelayRetry: Sendable {
        let relay: TCPRendezvous.Relay
        /// When waiting at the relay ends (the code's expiry plus the skew tolerance).
        let pairingDeadline: ContinuousClock.Instant
        /// An attempt failed, with why.
        let failed: @Sendable (TransportError) -> Void
        /// An attempt reached the relay at this address.
        let reached: @Sendable (IPv4Address) -> Void
    }

    let loop: EventLoop
    let configuration: TransportConfiguration
    /// The QR's keys for admission; `nil` for a typed connection, which has none (Spec 11.10).
    private let keys: TransportKeys?
    /// Whether the connection goes through a relay (Spec 11.7).
    private let relayed: Bool
    private var link: LoopConnection?
    /// Waiting for the relay's `ok`, on a relayed connection.
    private var dialer: RelayDialer?
    /// The connecting task was cancelled, possibly before the connect began on the loop.
    private var cancelled = false
    /// The admission response, until the first frame (the hello) goes out with it.
    private var unsentResponse: [UInt8]?
    /// Through a relay: how to connect again (Spec 11.7).
    private var relayRetry: RelayRetry?
    /// Through a relay, the hello as it went out (length prefix included) until the sender's
    /// first frame arrives: a connection made again sends it again.
    private var sentHello: [UInt8]?
    /// When the next connection through the relay is made.
    private var retryAt: ContinuousClock.Instant?
    private let random = SystemRandomSource()
    private var phase: Phase = .admitting(received: [], deadline: nil)
    private var admitted: CheckedContinuation<Void, any Error>?
    private var decoder = FrameStreamDecoder()
    private var frameStart: ContinuousClock.Instant?
    /// A whole frame not yet handed over.
    private var frame: [UInt8]?
    /// Whether the session holds the last frame handed over.
    private var frameWithSession = false
    private var peerLeftReported = false
    /// The driver waiting in ``ConnectionFrameChannel/receive()``.
    private var waiter = ReceiveWaiter()
    private var pendingWake: ContinuousClock.Instant?

    init(loop: EventLoop, configuration: TransportConfiguration, keys: TransportKeys?, relayed: Bool = false) {
        self.loop = loop
        self.configuration = configuration
        self.keys = keys
        self.relayed = relayed
    }

    /// The socket's descriptor, for tests.
    var descriptors: [Int32] { link.map { [$0.socket.descriptor] } ?? [] }

    // MARK: Connecting and admission

    /// Connects to `endpoint` and waits for the challenge; `continuation` resumes once
    /// admitted (the response is queued), or with the failure (the socket is closed then).
    func connect(to endpoint: TCPRendezvous.Endpoint, _ continuation: CheckedContinuation<Void, any Error>) {
        guard !cancelled else { return continuation.resume(throwing: CancellationError()) }
        admitted = continuation
        let link: LoopConnection
        do { link = try LoopConnection(loop: loop, socket: POSIXSocket.makeTCP()) } catch {
            finishAdmission(error)
            return
        }
        self.link = link
        link.delegate = self
        link.connect(to: endpoint.address, port: endpoint.port, deadline: .now + configuration.connectTimeout) { [self] failure in
            if let failure {
                finishAdmission(failure)
                return
            }
            startAdmission()
        }
    }

    /// Connects to the relay at `address:port`, sends `line` and waits until `pairingDeadline`
    /// for `ok` (Spec 11.7), then waits for the challenge as on a direct connection;
    /// `continuation` resumes once admitted, or with the failure. With `retry`, a connection the
    /// relay garbles before the sender's first frame is made again (with a new side) until the
    /// pairing deadline, the session none the wiser.
    func connect(throughRelayAt address: IPv4Address, port: UInt16, line: [UInt8], pairingDeadline: ContinuousClock.Instant,
                 retry: RelayRetry? = nil, _ continuation: CheckedContinuation<Void, any Error>) {
        guard !cancelled else { return continuation.resume(throwing: CancellationError()) }
        admitted = continuation
        relayRetry = retry
        dial(address, port: port, line: line, pairingDeadline: pairingDeadline)
    }

    private func dial(_ address: IPv4Address, port: UInt16, line: [UInt8], pairingDeadline: ContinuousClock.Instant) {
        let reached = relayRetry?.reached
        let dialer = RelayDialer(loop: loop, configuration: configuration, line: line, pairingDeadline: pairingDeadline,
                                 onConnected: { reached?(address) }) { [self] result in
            self.dialer = nil
            switch result {
            case .success(let link):
                guard admitted != nil || isRetrying else {
                    link.closeNow()
                    return
                }
                self.link = link
                link.delegate = self
                startAdmission()
            case .failure(let error):
                admissionFailed(error)
            }
        }
        self.dialer = dialer
        dialer.start(address: address, port: port)
    }

    /// The connection exists (for a relayed one: the relay said `ok`): the challenge is due
    /// within the admission timeout (Spec 11.4).
    private func startAdmission() {
        guard let link else { return }
        guard keys != nil else {
            // The typed way has no admission: the sender speaks first with its pakeInit.
            phase = .open
            link.setReading(true)
            finishAdmission(nil)
            return
        }
        let deadline = ContinuousClock.now + configuration.admissionTimeout
        phase = .admitting(received: [], deadline: deadline)
        scheduleWake(at: deadline)
        link.setReading(true)
    }

    /// Stops admitting (the connecting task was cancelled).
    func cancelAdmission() {
        cancelled = true
        guard admitted != nil else { return }
        finishAdmission(CancellationError())
    }

    /// Admission failed: the connect ends with `error`, or, for a connection made again
    /// through the relay, the next one is made.
    private func admissionFailed(_ error: any Error) {
        guard admitted == nil, isRetrying, let transport = error as? TransportError else { return finishAdmission(error) }
        retryThroughRelay(after: transport)
    }

    private func finishAdmission(_ failure: (any Error)?) {
        guard let admitted else { return }
        self.admitted = nil
        if let failure {
            if let dialer {
                self.dialer = nil
                dialer.cancel()
            }
            phase = .closed
            link?.closeNow()
            admitted.resume(throwing: failure)
        } else {
            admitted.resume()
        }
    }

    private func readChallenge(received: [UInt8], deadline: ContinuousClock.Instant?) {
        guard let link else { return }
        var received = received
        do {
            while received.count < Admission.challengeByteCount {
                guard let chunk = try link.read(maximum: Admission.challengeByteCount - received.count) else {
                    phase = .admitting(received: received, deadline: deadline)
                    return
                }
                guard !chunk.isEmpty else { throw TransportError.closedByPeer }
                received += chunk
                let magicEnd = min(Admission.challengeMagic.count, received.count)
                guard received.prefix(magicEnd).elementsEqual(Admission.challengeMagic.prefix(magicEnd)) else {
                    throw TransportError.notAHandoffSender
                }
            }
        } catch {
            admissionFailed(error)
            return
        }
        guard let keys else { return }
        switch Admission.answer(received, keys: keys) {
        case .notAChallenge:
            admissionFailed(TransportError.notAHandoffSender)
        case .renewedCode:
            // Through a relay, the token already names this QR: a sender serving a renewed one
            // waits under another token, so another hint means someone other than the sender.
            admissionFailed(relayed ? TransportError.notAHandoffSender : TransportError.codeRenewed)
        case .answer(let response):
            phase = .open
            if let hello = sentHello {
                // A connection made again through the relay: the hello goes again, at once.
                link.write(response + hello, deadline: .now + configuration.writeTimeout)
                readFrame()
            } else if relayed {
                // Through a relay, sent with the hello in one write (Spec 11.4): a relay that
                // copies two small writes one by one holds the second until the first is
                // acknowledged, and a delayed acknowledgement makes that 40 ms. Nothing is read
                // before the hello left: the sender sends nothing before it has the hello, so
                // whatever comes first is its answer, or the relay's doing (Spec 11.7).
                unsentResponse = response
                link.setReading(false)
                finishAdmission(nil)
            } else {
                link.write(response, deadline: .now + configuration.writeTimeout)
                finishAdmission(nil)
                readFrame()
            }
        }
    }

    // MARK: Frames

    func connectionReadable(_ connection: LoopConnection) {
        switch phase {
        case .admitting(let received, let deadline): readChallenge(received: received, deadline: deadline)
        case .open: readFrame()
        case .ended, .closed: break
        }
    }

    func connection(_ connection: LoopConnection, failed error: TransportError) {
        if case .admitting = phase {
            admissionFailed(error)
            return
        }
        peerGone()
    }

    /// Reads until one whole frame is here; then stops reading until the session asks again.
    private func readFrame() {
        guard case .open = phase, frame == nil, !frameWithSession, let link else { return }
        do {
            while true {
                guard let chunk = try link.read(maximum: decoder.bytesToCompleteFrame) else {
                    link.setReading(true)
                    return
                }
                guard !chunk.isEmpty else { throw TransportError.closedByPeer }
                decoder.append(chunk)
                if frameStart == nil {
                    let now = ContinuousClock.now
                    frameStart = now
                    scheduleWake(at: now + configuration.readTimeout)
                }
                if let whole = try decoder.nextFrame() {
                    frameStart = nil
                    sentHello = nil  // the sender answered: from now on a garbled stream ends the session
                    frame = whole
                    link.setReading(false)
                    deliver()
                    return
                }
            }
        } catch TransportError.oversizedFrame where sentHello != nil {
            retryThroughRelay(after: .garbledByRelay)
        } catch TransportError.emptyFrame where sentHello != nil {
            retryThroughRelay(after: .garbledByRelay)
        } catch {
            peerGone()
        }
    }

    // MARK: Connecting again through the relay (Spec 11.7)

    /// Whether a connection made again through the relay is on its way.
    private var isRetrying: Bool { relayRetry != nil && sentHello != nil }

    /// The relay garbled the connection before the sender's first frame, or a connection made
    /// again did not get through: the next one is made after the retry delay, until the
    /// pairing deadline; then the session hears that the sender is gone.
    private func retryThroughRelay(after error: TransportError) {
        guard let retry = relayRetry else { return peerGone() }
        switch phase {
        case .admitting, .open: break
        case .ended, .closed: return
        }
        link?.closeNow()
        link = nil
        decoder = FrameStreamDecoder()
        frameStart = nil
        let next = ContinuousClock.now + configuration.relayRetryDelay
        guard next < retry.pairingDeadline else {
            phase = .ended
            deliver()
            return
        }
        phase = .admitting(received: [], deadline: nil)
        retry.failed(error)
        retryAt = next
        scheduleWake(at: next)
    }

    /// Looks the relay up again and connects with a new side (Spec 11.7).
    private func connectAgain() {
        // A typed connection has no QR keys and is never retried (its line is the nameplate's).
        guard let retry = relayRetry, let keys else { return }
        let loop = self.loop
        RelayAddressResolver.resolve(retry.relay.host) { [self] result in
            loop.execute { [self] in
                guard case .admitting = phase else { return }
                switch result {
                case .failure(let error):
                    retryThroughRelay(after: error)
                case .success(let address):
                    let side = RelayHandshake.receiverSide(senderSide: keys.senderSide, random: random)
                    dial(address, port: retry.relay.port, line: RelayHandshake.line(relayToken: keys.relayToken, side: side),
                         pairingDeadline: retry.pairingDeadline)
                }
            }
        }
    }

    private func peerGone() {
        guard case .open = phase else { return }
        phase = .ended
        link?.closeNow()
        deliver()
    }

    // MARK: The session's side

    func receive(_ identifier: UInt64, _ continuation: CheckedContinuation<FrameChannelEvent?, any Error>) {
        guard waiter.admits(continuation) else { return }
        if frameWithSession {
            frameWithSession = false
            readFrame()
        }
        waiter.wait(identifier, continuation)
        deliver()
    }

    func cancelReceive(_ identifier: UInt64) {
        waiter.cancel(identifier)
    }

    private func deliver() {
        guard waiter.isWaiting else { return }
        let event: FrameChannelEvent?
        if let frame {
            self.frame = nil
            frameWithSession = true
            event = .frame(frame, from: Self.peer)
        } else {
            switch phase {
            case .admitting, .open:
                return
            case .ended where !peerLeftReported:
                peerLeftReported = true
                event = .peerLeft(Self.peer)
            case .ended, .closed:
                event = nil
            }
        }
        waiter.resume(returning: event)
    }

    func send(_ frame: [UInt8], _ continuation: CheckedContinuation<Void, any Error>) {
        guard case .open = phase, let link else {
            continuation.resume(throwing: TransportError.closedLocally)
            return
        }
        var bytes: [UInt8]
        do { bytes = try FrameStream.encode(frame) } catch {
            continuation.resume(throwing: error)
            return
        }
        let first = unsentResponse
        if let response = first {
            unsentResponse = nil
            if relayRetry != nil { sentHello = bytes }
            bytes = response + bytes
        }
        link.write(bytes, deadline: .now + configuration.writeTimeout, resuming: continuation)
        if first != nil { readFrame() }
    }

    /// Closes cleanly: frames already sent are written, then the connection stops sending and
    /// waits up to the linger for the peer's close; `continuation` resumes then.
    func close(_ continuation: CheckedContinuation<Void, Never>) {
        finishAdmission(TransportError.closedLocally)
        phase = .closed
        stopRetrying()
        waiter.resume(returning: nil)
        guard let link else {
            continuation.resume()
            return
        }
        link.closeGracefully(linger: configuration.closeLinger) { continuation.resume() }
    }

    /// Closes at once (the channel was released without ``close(_:)``).
    func abandon() {
        finishAdmission(TransportError.closedLocally)
        phase = .closed
        stopRetrying()
        link?.closeNow()
        waiter.resume(returning: nil)
    }

    private func stopRetrying() {
        retryAt = nil
        if let dialer {
            self.dialer = nil
            dialer.cancel()
        }
    }

    // MARK: Deadlines

    func deadlineReached(now: ContinuousClock.Instant) {
        pendingWake = nil
        switch phase {
        case .admitting(_, let deadline?):
            if deadline <= now { admissionFailed(TransportError.timedOut) } else { scheduleWake(at: deadline) }
        case .admitting(_, nil):
            guard let at = retryAt else { return }
            guard at <= now else { return scheduleWake(at: at) }
            retryAt = nil
            connectAgain()
        case .open:
            guard let start = frameStart else { return }
            if start + configuration.readTimeout <= now { peerGone() } else { scheduleWake(at: start + configuration.readTimeout) }
        case .ended, .closed:
            break
        }
    }

    private func scheduleWake(at instant: ContinuousClock.Instant) {
        if let pendingWake, pendingWake <= instant { return }
        pendingWake = instant
        loop.wake(self, at: instant)
    }
}
