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

    private struct Waiter {
        let identifier: UInt64
        let continuation: CheckedContinuation<FrameChannelEvent?, any Error>
    }

    static let peer = FramePeer(id: 0)

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
    private var phase: Phase = .admitting(received: [], deadline: nil)
    private var admitted: CheckedContinuation<Void, any Error>?
    private var decoder = FrameStreamDecoder()
    private var frameStart: ContinuousClock.Instant?
    /// A whole frame not yet handed over.
    private var frame: [UInt8]?
    /// Whether the session holds the last frame handed over.
    private var frameWithSession = false
    private var peerLeftReported = false
    private var waiter: Waiter?
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
    /// `continuation` resumes once admitted, or with the failure.
    func connect(throughRelayAt address: IPv4Address, port: UInt16, line: [UInt8], pairingDeadline: ContinuousClock.Instant,
                 _ continuation: CheckedContinuation<Void, any Error>) {
        guard !cancelled else { return continuation.resume(throwing: CancellationError()) }
        admitted = continuation
        let dialer = RelayDialer(loop: loop, configuration: configuration, line: line, pairingDeadline: pairingDeadline) { [self] result in
            self.dialer = nil
            switch result {
            case .success(let link):
                guard admitted != nil else {
                    link.closeNow()
                    return
                }
                self.link = link
                link.delegate = self
                startAdmission()
            case .failure(let error):
                finishAdmission(error)
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
            finishAdmission(error)
            return
        }
        guard let keys else { return }
        switch Admission.answer(received, keys: keys) {
        case .notAChallenge:
            finishAdmission(TransportError.notAHandoffSender)
        case .renewedCode:
            // Through a relay, the token already names this QR: a sender serving a renewed one
            // waits under another token, so another hint means someone other than the sender.
            finishAdmission(relayed ? TransportError.notAHandoffSender : TransportError.codeRenewed)
        case .answer(let response):
            phase = .open
            if relayed {
                // Through a relay, sent with the hello in one write (Spec 11.4): a relay that
                // copies two small writes one by one holds the second until the first is
                // acknowledged, and a delayed acknowledgement makes that 40 ms.
                unsentResponse = response
            } else {
                link.write(response, deadline: .now + configuration.writeTimeout)
            }
            finishAdmission(nil)
            readFrame()
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
            finishAdmission(error)
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
                    frame = whole
                    link.setReading(false)
                    deliver()
                    return
                }
            }
        } catch {
            peerGone()
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
        guard waiter == nil else {
            continuation.resume(throwing: TransportError.closedLocally)  // one reader at a time
            return
        }
        if frameWithSession {
            frameWithSession = false
            readFrame()
        }
        waiter = Waiter(identifier: identifier, continuation: continuation)
        deliver()
    }

    func cancelReceive(_ identifier: UInt64) {
        guard let waiter, waiter.identifier == identifier else { return }
        self.waiter = nil
        waiter.continuation.resume(throwing: CancellationError())
    }

    private func deliver() {
        guard let waiter else { return }
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
        self.waiter = nil
        waiter.continuation.resume(returning: event)
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
        if let response = unsentResponse {
            unsentResponse = nil
            bytes = response + bytes
        }
        link.write(bytes, deadline: .now + configuration.writeTimeout) { failure in
            if let failure { continuation.resume(throwing: failure) } else { continuation.resume() }
        }
    }

    /// Closes cleanly: frames already sent are written, then the connection stops sending and
    /// waits up to the linger for the peer's close; `continuation` resumes then.
    func close(_ continuation: CheckedContinuation<Void, Never>) {
        finishAdmission(TransportError.closedLocally)
        phase = .closed
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: nil)
        }
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
        link?.closeNow()
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: nil)
        }
    }

    // MARK: Deadlines

    func deadlineReached(now: ContinuousClock.Instant) {
        pendingWake = nil
        switch phase {
        case .admitting(_, let deadline?):
            if deadline <= now { finishAdmission(TransportError.timedOut) } else { scheduleWake(at: deadline) }
        case .open:
            guard let start = frameStart else { return }
            if start + configuration.readTimeout <= now { peerGone() } else { scheduleWake(at: start + configuration.readTimeout) }
        case .admitting, .ended, .closed:
            break
        }
    }

    private func scheduleWake(at instant: ContinuousClock.Instant) {
        if let pendingWake, pendingWake <= instant { return }
        pendingWake = instant
        loop.wake(self, at: instant)
    }
}
