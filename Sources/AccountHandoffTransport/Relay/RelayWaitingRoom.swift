import AccountHandoff

/// The sender's side of the relay (Spec 11.7), on the loop thread only: while its session
/// waits for a hello, it keeps exactly one connection waiting at the relay with the current
/// QR's token and side, and hands each connection the relay pairs to the listener, which
/// admits it like an accepted one (11.4). It opens the next one at once after a pairing, and
/// after ``TransportConfiguration/relayRetryDelay`` when the relay could not be reached or
/// closed the waiting one. A renewed QR (11.8) closes the waiting connection and opens one
/// with the new token.
///
/// The typed way (Spec 11.10) has a room of its own: it waits with the nameplate's token and
/// side (12.8) while its session serves a nameplate for the relay route, and hands each paired
/// connection to the listener as a typed connection, with no admission.
final class RelayWaitingRoom: DeadlineTarget, @unchecked Sendable {
    /// What the room waits for.
    enum Purpose {
        /// The QR's receiving device (Spec 11.7): paired connections are admitted by 11.4.
        case qr
        /// A device that typed the code (Spec 11.10): paired connections are typed connections.
        case typed
    }

    // Safety of @unchecked Sendable: it is handed to the event loop's thread and only ever
    // touched there (``FrameListener`` passes it into `EventLoop.execute`).

    private enum State {
        /// Nothing in progress.
        case idle
        /// Looking up the relay's address; `attempt` tells a stale answer from the current one.
        case resolving(attempt: Int)
        /// Connected or connecting; waiting for `ok`.
        case dialing(RelayDialer, attempt: Int)
        /// After a failure, until the retry delay has passed.
        case pausing(until: ContinuousClock.Instant)
        /// The listener closed.
        case stopped
    }

    let relay: TCPRendezvous.Relay
    let purpose: Purpose
    private let loop: EventLoop
    private let configuration: TransportConfiguration
    private weak var listener: ListenerCore?
    private let status: AsyncStream<RelayStatus>.Continuation
    private var lastStatus: RelayStatus?
    /// The handshake line of the code served now (its token and the sender's side).
    private var line: [UInt8]?
    private var attempts = 0
    private var state: State = .idle
    private var pendingWake: ContinuousClock.Instant?

    init(relay: TCPRendezvous.Relay, purpose: Purpose = .qr, loop: EventLoop, configuration: TransportConfiguration, listener: ListenerCore,
         status: AsyncStream<RelayStatus>.Continuation) {
        self.relay = relay
        self.purpose = purpose
        self.loop = loop
        self.configuration = configuration
        self.listener = listener
        self.status = status
    }

    /// The QR changed (the first one, or a renewal): the waiting connection, which presented
    /// the old token, closes, and one with the new token opens.
    func setKeys(_ newKeys: TransportKeys) {
        setLine(RelayHandshake.senderLine(newKeys))
    }

    /// The code served changed: the waiting connection, which presented the old line, closes,
    /// and one with `newLine` opens; `nil`: no connection waits (the typed way is withdrawn).
    func setLine(_ newLine: [UInt8]?) {
        if case .stopped = state { return }
        if line == newLine { return }
        line = newLine
        abandonAttempt()
        update()
    }

    /// Opens a waiting connection when one is wanted and none is in progress; closes the
    /// waiting one when none is wanted any more. The listener calls it after every change
    /// that matters: a bind, a connection's end.
    func update() {
        let limit = configuration.maximumRelayedConnections
        let wanted = line != nil && (listener?.wantsRelayConnection(limit: limit, typed: purpose == .typed) ?? false)
        switch state {
        case .stopped:
            return
        case .idle:
            if wanted { resolve() } else { report(.idle) }
        case .resolving, .dialing:
            guard !wanted else { return }
            abandonAttempt()
            report(.idle)
        case .pausing:
            if !wanted {
                state = .idle
                report(.idle)
            }
        }
    }

    /// A connection the relay paired broke the framing before the session saw it (Spec 11.7).
    func noteGarbledConnection() {
        if case .stopped = state { return }
        lastStatus = nil  // said every time, whatever came before
        report(.garbledConnection)
    }

    /// The listener closed: no more connections.
    func stop() {
        abandonAttempt()
        state = .stopped
        status.finish()
    }

    // MARK: Steps

    private func resolve() {
        attempts += 1
        let attempt = attempts
        state = .resolving(attempt: attempt)
        let loop = self.loop
        RelayAddressResolver.resolve(relay.host) { [self] result in
            loop.execute { self.resolved(result, attempt: attempt) }
        }
    }

    private func resolved(_ result: Result<IPv4Address, TransportError>, attempt: Int) {
        guard case .resolving(let current) = state, current == attempt, let line else { return }
        switch result {
        case .failure(let error):
            pause(after: error)
        case .success(let address):
            let dialer = RelayDialer(loop: loop, configuration: configuration, line: line, pairingDeadline: nil,
                                     onConnected: { [weak self] in self?.report(.waiting(at: address)) },
                                     completion: { [weak self] result in
                                         guard let self else {
                                             if case .success(let link) = result { link.closeNow() }
                                             return
                                         }
                                         dialed(result, attempt: attempt)
                                     })
            state = .dialing(dialer, attempt: attempt)
            dialer.start(address: address, port: relay.port)
        }
    }

    private func dialed(_ result: Result<LoopConnection, TransportError>, attempt: Int) {
        guard case .dialing(_, let current) = state, current == attempt else {
            if case .success(let link) = result { link.closeNow() }
            return
        }
        state = .idle
        switch result {
        case .success(let link):
            report(.paired)
            switch purpose {
            case .qr: listener?.takePaired(link)
            case .typed: listener?.takeTypedPaired(link)
            }
            update()
        case .failure(let error):
            pause(after: error)
        }
    }

    private func pause(after error: TransportError) {
        report(.unreachable(error))
        let until = ContinuousClock.now + configuration.relayRetryDelay
        state = .pausing(until: until)
        scheduleWake(at: until)
    }

    /// Drops the attempt in progress (its dialer closes its connection).
    private func abandonAttempt() {
        switch state {
        case .dialing(let dialer, _):
            state = .idle
            dialer.cancel()
        case .resolving, .pausing:
            state = .idle
        case .idle, .stopped:
            break
        }
    }

    private func report(_ new: RelayStatus) {
        guard new != lastStatus else { return }
        lastStatus = new
        status.yield(new)
    }

    // MARK: Deadlines

    func deadlineReached(now: ContinuousClock.Instant) {
        pendingWake = nil
        guard case .pausing(let until) = state else { return }
        guard until <= now else {
            scheduleWake(at: until)
            return
        }
        state = .idle
        update()
    }

    private func scheduleWake(at instant: ContinuousClock.Instant) {
        if let pendingWake, pendingWake <= instant { return }
        pendingWake = instant
        loop.wake(self, at: instant)
    }
}
