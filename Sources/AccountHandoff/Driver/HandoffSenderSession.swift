import Foundation

/// A sender session that runs itself: it drives a ``HandoffSender`` over a ``FrameChannel``,
/// writes frames in order, reads the clock only at the session's next deadline, and reports
/// what to show as ``updates``. The person's decisions are async calls.
///
/// ```swift
/// let session = try HandoffSenderSession(account: account, rendezvous: listener.token, channel: listener)
/// showQR(session.payload.text)
/// Task {
///     for await update in session.updates {
///         switch update {
///         case .codeReady(let code): ui.askToCompare(code)      // then session.confirmCode()
///         case .credentialRequested: ui.reauthenticate()         // then session.provideCredential(_:)
///         case .finished(let outcome): ui.show(outcome.message)
///         default: ui.show(update)
///         }
///     }
/// }
/// let outcome = await session.run()
/// ```
///
/// Connections (Spec 6.7): the session binds to the peer whose hello authenticated first,
/// and treats any peer that presents the same hello bytes as a candidate that gets the same
/// frames, until an authenticated frame from one of them decides; other peers' frames are
/// ignored and reported to the channel, which may close them.
public actor HandoffSenderSession {
    /// How many peers may present the accepted hello before one of them is bound.
    static let maximumCandidates = 4

    /// What to encode into the QR code.
    public nonisolated let payload: SessionPayload
    /// What to show, in order; finishes after ``SenderUpdate/finished(_:)``.
    public nonisolated let updates: AsyncStream<SenderUpdate>

    private let sender: HandoffSender
    private let channel: any FrameChannel
    private let clock: any HandoffClock
    private let updateSink: AsyncStream<SenderUpdate>.Continuation
    private let outbound = OutboundQueue()
    private let deadlineChanges: AsyncStream<Void>
    private let deadlineSink: AsyncStream<Void>.Continuation
    private var acceptedHello: [UInt8]?
    private var candidates: [FramePeer] = []
    private var boundPeer: FramePeer?
    private var framesSentSoFar: [[UInt8]] = []
    private var ignored = IgnoredFrameCounter()
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []
    private var running = false

    /// Starts a session (``HandoffSender/start(account:rendezvous:configuration:random:now:registry:)``).
    ///
    /// - Throws: the errors of `start`.
    public init(account: AccountMetadata, rendezvous: RendezvousToken, channel: any FrameChannel,
                configuration: SenderConfiguration = .standard, registry: SenderRegistry? = nil,
                clock: any HandoffClock = SystemHandoffClock(),
                random: sending any RandomSource = SystemRandomSource()) throws(HandoffError) {
        let sender = try HandoffSender.start(account: account, rendezvous: rendezvous, configuration: configuration,
                                             random: random, now: clock.now(), registry: registry)
        self.sender = sender
        self.payload = sender.payload
        self.channel = channel
        self.clock = clock
        (updates, updateSink) = AsyncStream.makeStream(of: SenderUpdate.self)
        (deadlineChanges, deadlineSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The short code, once a receiving device joined.
    public var shortCode: ShortCode? { sender.shortCode }
    /// The session's phase.
    public var phase: SenderPhase { sender.phase }
    /// The outcome, once the session ended.
    public var outcome: SenderOutcome? { sender.outcome }

    /// Runs the session until it ends, then closes the channel (after the last frame left) and
    /// returns the outcome. Calling it again returns the same outcome.
    public func run() async -> SenderOutcome {
        if running || sender.outcome != nil { return await outcomeWhenFinished() }
        running = true
        updateSink.yield(.waitingForReceiver(expires: sender.expiryDate))
        let writer = Task { await self.writeFrames() }
        let reader = Task { await self.readFrames(from: channel) }
        let timer = Task { await self.keepTime() }
        let outcome = await outcomeWhenFinished()
        await writer.value
        await channel.close()
        reader.cancel()
        timer.cancel()
        return outcome
    }

    // MARK: Decisions

    /// The sending person confirmed that both devices show the same code.
    ///
    /// - Throws: ``HandoffError/invalidEvent(_:in:)`` when there is no code to confirm, and the
    ///   other errors of ``HandoffSender/handle(_:now:)``.
    public func confirmCode() throws(HandoffError) {
        try feed(.codeConfirmed, from: nil)
        if sender.phase == .awaitingAccept { updateSink.yield(.offerSent) }
    }

    /// The sending person typed the code shown on the other device: confirms when it matches
    /// (compared in constant time, Spec 4.4), rejects otherwise.
    ///
    /// - Returns: whether the typed code matched.
    /// - Throws: as ``confirmCode()``.
    public func confirmCode(typed: String) throws(HandoffError) -> Bool {
        guard let code = sender.shortCode else { throw .invalidEvent(.codeConfirmed, in: .sender(sender.phase)) }
        if code.matches(typed: typed) {
            try confirmCode()
            return true
        }
        try feed(.codeRejected, from: nil)
        return false
    }

    /// The sending person saw different codes, or declined.
    ///
    /// - Throws: ``HandoffError/invalidEvent(_:in:)`` when there is nothing to reject.
    public func rejectCode() throws(HandoffError) {
        try feed(.codeRejected, from: nil)
    }

    /// Hands over the password after the user re-authenticated. The buffer is wiped in every
    /// case.
    ///
    /// - Throws: `malformed.credential` for a password that is empty or longer than
    ///   ``HandoffSender/maximumCredentialByteCount``; ``HandoffError/invalidEvent(_:in:)``
    ///   when it was not requested.
    public func provideCredential(_ credential: SecretBytes) throws(HandoffError) {
        try feed(.credentialProvided(credential), from: nil)
        if sender.phase == .awaitingReceipt { updateSink.yield(.credentialSent) }
    }

    /// Cancels the transfer. After the password left, this only stops waiting for the
    /// receipt (the outcome says so). A no-op after the end.
    public func cancel() {
        try? feed(.cancel, from: nil)
    }

    // MARK: Driving the state machine

    private func feed(_ event: SenderEvent, from peer: FramePeer?) throws(HandoffError) {
        let step = try sender.handle(event, now: clock.now())
        perform(step.actions, triggeredBy: event, from: peer)
        deadlineSink.yield()
    }

    private func perform(_ actions: [SenderAction], triggeredBy event: SenderEvent, from peer: FramePeer?) {
        for action in actions {
            switch action {
            case .send(let frame):
                framesSentSoFar.append(frame)
                for target in boundPeer.map({ [$0] }) ?? candidates { outbound.enqueue(frame, to: target) }
            case .reply(let frame):
                if let peer { outbound.enqueue(frame, to: peer) }
            case .showShortCode(let code):
                if case .frameReceived(let hello) = event, let peer {
                    acceptedHello = hello
                    candidates = [peer]
                    // The frames of this action list (the reveal) were queued for no one yet.
                    for frame in framesSentSoFar { outbound.enqueue(frame, to: peer) }
                    bindTransport(peer)
                }
                updateSink.yield(.codeReady(code))
            case .requestCredential:
                updateSink.yield(.credentialRequested)
            case .anotherDeviceJoined:
                updateSink.yield(.anotherDeviceJoined)
            case .ignored(let error):
                noteIgnored(error, event: event, from: peer)
            case .finished(let outcome):
                finished(outcome)
            }
        }
        if let peer, boundPeer == nil, candidates.contains(peer), authenticatedReceiverFrame(actions, event: event) {
            bind(peer)
        }
    }

    /// Whether a frame from a candidate authenticated as the receiver's (not a hello): it
    /// requested the credential, or ended the session without a local reason.
    private func authenticatedReceiverFrame(_ actions: [SenderAction], event: SenderEvent) -> Bool {
        guard case .frameReceived(let bytes) = event, bytes != acceptedHello else { return false }
        return actions.contains { action in
            switch action {
            case .requestCredential, .finished: true
            case .send, .reply, .showShortCode, .anotherDeviceJoined, .ignored: false
            }
        }
    }

    private func bind(_ peer: FramePeer) {
        boundPeer = peer
        for other in candidates where other != peer { disconnectTransport(other) }
        candidates = [peer]
    }

    private func noteIgnored(_ error: HandoffError, event: SenderEvent, from peer: FramePeer?) {
        if case .frameReceived(let bytes) = event, error == .replayed, let peer, bytes == acceptedHello,
           boundPeer == nil, !candidates.contains(peer), candidates.count < Self.maximumCandidates {
            // The accepted hello again, on another connection (Spec 6.7): it gets the same frames.
            candidates.append(peer)
            for frame in framesSentSoFar { outbound.enqueue(frame, to: peer) }
            bindTransport(peer)
            return
        }
        if ignored.record() { updateSink.yield(.framesIgnored(count: ignored.count, last: error)) }
        if let peer, !candidates.contains(peer) {
            let channel = self.channel
            Task { await channel.noteIgnoredFrame(from: peer) }
        }
    }

    private func bindTransport(_ peer: FramePeer) {
        let channel = self.channel
        Task { await channel.bind(peer) }
    }

    private func disconnectTransport(_ peer: FramePeer) {
        let channel = self.channel
        Task { await channel.disconnect(peer) }
    }

    private func finished(_ outcome: SenderOutcome) {
        outbound.finish()
        updateSink.yield(.finished(outcome))
        updateSink.finish()
        deadlineSink.finish()
        for waiter in finishWaiters { waiter.resume() }
        finishWaiters.removeAll()
    }

    private func outcomeWhenFinished() async -> SenderOutcome {
        if let outcome = sender.outcome { return outcome }
        await withCheckedContinuation { finishWaiters.append($0) }
        // The state machine reports an outcome before resuming any waiter.
        return sender.outcome ?? .ended(.failed(.transportLost))
    }

    // MARK: Tasks

    private func writeFrames() async {
        for await item in outbound.items {
            do { try await channel.send(item.frame, to: item.peer) } catch { peerFailed(item.peer) }
        }
    }

    private func readFrames(from channel: any FrameChannel) async {
        do {
            while let event = try await channel.receive() {
                switch event {
                case .frame(let bytes, let peer): try? feed(.frameReceived(bytes), from: peer)
                case .peerLeft(let peer): peerFailed(peer)
                }
                if sender.outcome != nil { return }
            }
        } catch {}
        if sender.outcome == nil { try? feed(.transportLost, from: nil) }
    }

    private func peerFailed(_ peer: FramePeer) {
        guard sender.outcome == nil else { return }
        if boundPeer == peer {
            try? feed(.transportLost, from: nil)
            return
        }
        guard let index = candidates.firstIndex(of: peer) else { return }
        candidates.remove(at: index)
        if candidates.isEmpty { try? feed(.transportLost, from: nil) }
    }

    private func keepTime() async {
        var changes = deadlineChanges.makeAsyncIterator()
        while sender.outcome == nil {
            guard let deadline = sender.nextDeadline else {
                guard await changes.next() != nil else { return }
                continue
            }
            do { try await clock.sleep(until: deadline) } catch { return }
            try? feed(.tick, from: nil)
        }
    }
}
