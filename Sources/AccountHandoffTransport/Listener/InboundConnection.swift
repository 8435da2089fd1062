import AccountHandoff

/// One connection of a ``FrameListener``, from its acceptance to its close: its admission,
/// its frame (at most one at a time, read only when the session is ready for it) and its
/// deadlines. Loop thread only; ``ListenerCore`` does the work, this holds the state.
final class InboundConnection: DeadlineTarget, LoopConnectionDelegate {
    enum Stage {
        /// Accepted before the listener had keys: the challenge goes out when they come.
        case awaitingKeys
        /// Challenged; `received` holds the response's bytes so far.
        case challenged(nonce: [UInt8], keys: TransportKeys, received: [UInt8])
        /// Admitted; frames flow to the session, which has the bind deadline to bind it.
        case admitted
        /// Bound to the session: no bind deadline, never evicted.
        case bound
    }

    /// Where the connection's one frame is.
    enum FrameState: Equatable {
        /// None: the connection is being read.
        case none
        /// Queued for the session.
        case queued
        /// A hello waiting for its turn since `since` (Spec 11.6).
        case waitingAsHello(since: ContinuousClock.Instant)
        /// In the session's hands until the driver asks for the next event.
        case withSession
    }

    let identifier: Int
    let link: LoopConnection
    /// Whether a relay paired it (Spec 11.7) rather than the listening socket accepting it.
    let viaRelay: Bool
    /// For a connection of the typed way (Spec 11.10): the nameplate it came for. It has no
    /// admission (it starts admitted) and its bind deadline is its run's deadline.
    let typedNameplate: TypedCode.Nameplate?
    weak var owner: ListenerCore?
    var stage: Stage = .awaitingKeys
    let admissionDeadline: ContinuousClock.Instant
    /// What is left of the bind deadline, and since when it runs (`nil`: stopped).
    var bindBudget: Duration = .zero
    var bindRunningSince: ContinuousClock.Instant?
    var decoder = FrameStreamDecoder()
    /// When the first byte of the frame now arriving came, for the stall timeout.
    var frameStart: ContinuousClock.Instant?
    var frame: [UInt8]?
    var frameState: FrameState = .none
    var helloCount = 0
    var ignoredFrameCount = 0
    /// For an accepted typed connection: the address it came from (Spec 11.10 T10).
    var typedPeerAddress: IPv4Address?
    /// For a typed connection that was sent its `pakeInit`: when its reply is due (Spec 11.10 T11).
    var replyDeadline: ContinuousClock.Instant?
    /// Whether the session got a frame from it, so its end is worth reporting.
    var knownToSession = false
    /// The most bytes it buffered at once.
    var peakBufferedByteCount = 0
    private var pendingWake: ContinuousClock.Instant?

    init(identifier: Int, link: LoopConnection, viaRelay: Bool, typedNameplate: TypedCode.Nameplate? = nil,
         admissionDeadline: ContinuousClock.Instant, owner: ListenerCore) {
        self.identifier = identifier
        self.link = link
        self.viaRelay = viaRelay
        self.typedNameplate = typedNameplate
        self.admissionDeadline = admissionDeadline
        self.owner = owner
    }

    var peer: FramePeer { FramePeer(id: identifier) }

    var isTyped: Bool { typedNameplate != nil }

    var isAdmitted: Bool {
        if case .admitted = stage { return true }
        return false
    }

    var isBound: Bool {
        if case .bound = stage { return true }
        return false
    }

    var isBeforeAdmission: Bool {
        switch stage {
        case .awaitingKeys, .challenged: true
        case .admitted, .bound: false
        }
    }

    /// When the bind deadline passes, while it runs.
    var bindDeadline: ContinuousClock.Instant? {
        guard isAdmitted, let since = bindRunningSince else { return nil }
        return since + bindBudget
    }

    /// Stops the bind clock (a frame of it went to the session's queue).
    func stopBindClock(now: ContinuousClock.Instant) {
        guard let since = bindRunningSince else { return }
        bindBudget -= now - since
        bindRunningSince = nil
    }

    /// Starts the bind clock again (the session is done with its frame).
    func startBindClock(now: ContinuousClock.Instant) {
        guard isAdmitted, bindRunningSince == nil else { return }
        bindRunningSince = now
    }

    /// The earliest deadline that applies now.
    func nextDeadline(readTimeout: Duration) -> ContinuousClock.Instant? {
        let stall = frameStart.map { $0 + readTimeout }
        switch stage {
        case .awaitingKeys, .challenged: return admissionDeadline
        case .admitted: return [bindDeadline, stall, frameState == .none ? replyDeadline : nil].compactMap { $0 }.min()
        case .bound: return stall
        }
    }

    /// Asks the loop for a wake-up at `instant` unless an earlier one is pending.
    func scheduleWake(at instant: ContinuousClock.Instant) {
        if let pendingWake, pendingWake <= instant { return }
        pendingWake = instant
        link.loop.wake(self, at: instant)
    }

    /// Whether it may be closed to make room for a new connection, and in which order (Spec
    /// 11.6): first one whose hello the session saw and did not bind (it had its chance), then
    /// the oldest of those not yet admitted, so that a new connection outlives many later
    /// arrivals. `nil` for one that may not: bound, a frame waiting for or with the session, or
    /// admitted with its hello still to come, which no connection that has not proved it saw
    /// the QR can push out.
    var evictionRank: Int? {
        guard frameState == .none else { return nil }
        switch stage {
        case .awaitingKeys, .challenged: return 1
        case .admitted: return helloCount > 0 ? 0 : nil
        case .bound: return nil
        }
    }

    // MARK: Forwarding

    func deadlineReached(now: ContinuousClock.Instant) {
        pendingWake = nil
        owner?.deadlineReached(self, now: now)
    }

    func connectionReadable(_ connection: LoopConnection) {
        owner?.readable(self)
    }

    func connection(_ connection: LoopConnection, failed error: TransportError) {
        owner?.failed(self, error)
    }
}
