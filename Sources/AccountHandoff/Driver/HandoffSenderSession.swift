import Foundation

/// A sender session that runs itself: it shows QR codes (renewing an expired, unscanned one),
/// drives a ``HandoffSender`` over a ``FrameChannel``, asks its person to type the code the
/// receiving device shows, authenticates the person before it reads the password, and
/// reports what to show as ``updates``.
///
/// With the reference transport and the app's ``LocalAuthenticator`` (`gate`:
/// `DeviceOwnerAuthenticator` on Apple platforms, `PAMAuthenticator` on Linux):
///
/// ```swift
/// let listener = try FrameListener()  // AccountHandoffTransport; or any FrameChannel
/// let session = HandoffSenderSession(account: account, rendezvous: listener.rendezvous.token, channel: listener,
///                                    credential: { try keychain.password(for: $0) },
///                                    authenticator: gate, registry: registry)
/// Task {
///     for await update in session.updates {
///         switch update {
///         case .showCode(let payload, _, _): ui.showQR(payload.text, expires: payload.expiryDate)
///         case .receiverJoined: ui.askForTheCodeOnTheOtherScreen()  // then enterCode(_:)
///         case .finished(let outcome): ui.show(outcome.message)
///         default: break
///         }
///     }
/// }
/// let outcome = await session.run()
/// ```
///
/// The sending person never sees this device's code: they type the one the receiving device
/// shows (``enterCode(_:)``), so a careless "yes" cannot confirm a device that shows none
/// (Spec 4.4, 8.2). Once both people confirmed, the session asks its ``LocalAuthenticator``,
/// then reads the password with its ``CredentialReader`` (Spec 8.7).
///
/// The typed way (Spec 6.8): with ``SenderSessionOptions/typedRoutes``, each ``SenderUpdate/showCode(_:typed:number:)``
/// carries the typed code to show beside the QR, and the session tells its channel the
/// nameplate to serve (``FrameChannel/serveTyped(_:)``). Each
/// ``FrameChannelEvent/typedConnection(_:route:)`` gets a CPace run; a wrong code retires the
/// code at once (``SenderUpdate/typedCodeRetired(newCode:wrongGuesses:)``), three withdraw the
/// typed way (the QR stays), and the first way to pair wins.
///
/// The gate declaration (Spec 3.4, 3.6): the offer declares whether this device's
/// ``LocalAuthenticator`` asks its person (``LocalAuthenticator/gateDeclaration``), and
/// ``SenderUpdate/receiverAccepted(receiverGate:)`` says what the receiving device declared,
/// before the gate asks and the password is read.
///
/// Connections (Spec 6.7): the session binds to the peer whose hello authenticated first, and
/// treats up to ``maximumCandidates`` peers that present the same hello bytes as candidates
/// that get the same frames, until an authenticated frame from one of them decides.
///
/// - Warning: Keep one ``SenderRegistry`` per device (durable, if you can): it refuses a
///   transfer ID twice and records each outcome, including
///   ``SenderOutcome/deliveredUnconfirmed(_:)`` — the password left and no receipt came. Tell
///   the person then that the receiving device may hold the password, and remember it.
public actor HandoffSenderSession: SessionDriver {
    /// How many peers may present the accepted hello before one of them is bound (Spec 6.7,
    /// 11.6). The reference listener holds as many bound connections.
    public static let maximumCandidates = 32

    /// What to show, in order; finishes after ``SenderUpdate/finished(_:)``. One reader; it
    /// holds at most the newest 64 updates for a reader that falls behind (the final one is
    /// never dropped). A view reads ``snapshot`` instead.
    public nonisolated let updates: AsyncStream<SenderUpdate>
    /// What to show now, kept current from the updates: a view reads it without awaiting.
    public nonisolated var snapshot: SenderSnapshot { snapshots.value }
    private nonisolated let snapshots = SnapshotKeeper<SenderSnapshot>()

    var runtime = SessionRuntime<SenderUpdate, SenderOutcome>()
    let clock: any HandoffClock
    private let account: AccountMetadata
    private let rendezvous: RendezvousToken
    private let channel: any FrameChannel
    private let readCredential: CredentialReader
    private let authenticator: any LocalAuthenticator
    private let registry: SenderRegistry
    private let options: SenderSessionOptions
    private let random: any RandomSource
    private var sender: HandoffSender?
    private var codesShown = 0
    private var connections = CandidateConnections()
    private var credentialTask: Task<Void, Never>?
    private var cancelled = false
    private var codeWaiters: [CheckedContinuation<SessionPayload?, Never>] = []
    /// Typed connections with their runs (Spec 6.8), and those waiting for a free run.
    private var typedRuns: [FramePeer: TypedRunID] = [:]
    private var typedWaiting: [(peer: FramePeer, route: TypedRoute)] = []
    /// The typed way's wrong guesses under every QR of this session, and whether it was
    /// withdrawn: a renewed QR goes on from there (Spec 6.8).
    private var typedWrongGuesses = 0
    private var typedWayClosed = false

    /// Prepares a session; nothing is shown or sent until ``run()``.
    ///
    /// - Parameters:
    ///   - account: the account to offer once the sending person typed the right code.
    ///   - rendezvous: where receivers connect (the transport's token, Spec 11.1).
    ///   - channel: the transport's channel to receiving devices.
    ///   - credential: reads the password after the gate.
    ///   - authenticator: the local-authentication gate (Spec 8.7).
    ///   - registry: the device's record of transfer IDs and outcomes.
    ///   - options: lifetime, renewal and the optional gate before the QR.
    ///   - clock: the time source (the system clock in production).
    ///   - random: the randomness source (``SystemRandomSource`` in production).
    public init(account: AccountMetadata, rendezvous: RendezvousToken, channel: any FrameChannel,
                credential: @escaping CredentialReader, authenticator: any LocalAuthenticator,
                registry: SenderRegistry, options: SenderSessionOptions = .standard,
                clock: any HandoffClock = SystemHandoffClock(),
                random: sending any RandomSource = SystemRandomSource()) {
        self.account = account
        self.rendezvous = rendezvous
        self.channel = channel
        self.readCredential = credential
        self.authenticator = authenticator
        self.registry = registry
        self.options = options
        self.clock = clock
        self.random = random
        updates = runtime.updates
        runtime.observer = { [snapshots] in snapshots.apply($0) }
    }

    /// The ``snapshot`` each time it changes, starting with the current one, until the session
    /// ended. Any number of readers may follow; each stream keeps only the newest snapshot.
    public nonisolated func snapshotChanges() -> AsyncStream<SenderSnapshot> { snapshots.follow() }

    /// The QR on screen, once the session showed one.
    public var payload: SessionPayload? { sender?.payload }

    /// The QR on screen, waiting until the first one is shown; `nil` when the session ended
    /// without showing one (the gate before the QR refused, or it was cancelled).
    public func shownCode() async -> SessionPayload? {
        if let sender { return sender.payload }
        if runtime.outcome != nil { return nil }
        return await withCheckedContinuation { codeWaiters.append($0) }
    }
    /// The phase of the current QR's state machine.
    public var phase: SenderPhase? { sender?.phase }
    /// The outcome, once the session ended.
    public var outcome: SenderOutcome? { runtime.outcome }
    var nextDeadline: Date? { sender?.nextDeadline }

    /// Runs the session until it ends, then closes the channel (after the last frame left) and
    /// returns the outcome. Calling it again returns the same outcome.
    ///
    /// Cancelling the task that awaits it is ``cancel()``: the receiving device is told when one
    /// joined, the QR is withdrawn (its transfer ends in the registry, no renewal follows) and
    /// the channel closes; the outcome is `.ended(.cancelled(by: .local))`, or
    /// ``SenderOutcome/deliveredUnconfirmed(_:)`` once the password left.
    public func run() async -> SenderOutcome {
        await withTaskCancellationHandler {
            await runUntilFinished()
        } onCancel: {
            Task { await self.cancel() }
        }
    }

    private func runUntilFinished() async -> SenderOutcome {
        if runtime.running || runtime.outcome != nil { return await outcomeWhenFinished() }
        runtime.running = true
        if cancelled || Task.isCancelled { return finishWithoutQR(.cancelled(by: .local)) }
        if options.authenticatesBeforeShowingCode {
            let purpose = LocalAuthenticationPurpose.showTransferCode(account)
            runtime.yield(.authenticating(purpose))
            switch await authenticator.authenticate(for: purpose) {
            case .authenticated: break
            case .cancelled: return finishWithoutQR(.cancelled(by: .local))
            case .failed: return finishWithoutQR(.notAuthenticated(by: .local))
            }
            if cancelled { return finishWithoutQR(.cancelled(by: .local)) }
        }
        do { try await showNextCode() } catch { return finishWithoutQR(.failed(error)) }
        // A cancel that came while the first QR was being served ends it now.
        if cancelled { cancel() }
        await runLoop(over: channel)
        return await outcomeWhenFinished()
    }

    // MARK: Decisions

    /// The sending person typed the code the receiving device shows (Spec 4.4).
    ///
    /// - Returns: whether it matched; after ``HandoffSender/maximumCodeEntries`` mismatches the
    ///   transfer stops as rejected.
    /// - Throws: `malformed.typedCode` when the text is not six digits (spaces are ignored;
    ///   nothing changes and no try is used); ``HandoffError/invalidEvent(_:in:)`` when no
    ///   receiving device has joined; ``HandoffError/sessionFinished`` after the end.
    public func enterCode(_ typed: String) throws(HandoffError) -> CodeEntryResult {
        guard let sender, runtime.outcome == nil else { throw .sessionFinished }
        let step = try sender.handle(.codeEntered(typed), now: clock.now())
        perform(step.actions, from: nil)
        switch sender.phase {
        case .awaitingAccept:
            if let code = sender.shortCode { runtime.yield(.offerSent(code)) }
            return .matched
        case .finished:
            return .rejected
        case .awaitingHello, .awaitingCodeConfirmation, .awaitingCredential, .awaitingReceipt:
            for case .codeMismatch(let remaining) in step.actions { return .mismatch(remainingEntries: remaining) }
            return .rejected
        }
    }

    /// The sending person declined (the receiving screen shows no code, or not the right
    /// account).
    ///
    /// - Throws: ``HandoffError/invalidEvent(_:in:)`` when there is nothing to decline.
    public func reject() throws(HandoffError) {
        guard let sender, runtime.outcome == nil else { throw .sessionFinished }
        perform(try sender.handle(.reject, now: clock.now()).actions, from: nil)
    }

    /// Cancels the transfer, also while the person is being authenticated (the prompt is
    /// dismissed). After the password left, this only stops waiting for the receipt (the
    /// outcome says so). A no-op after the end.
    public func cancel() {
        cancelled = true
        credentialTask?.cancel()
        guard let sender else {
            // Before the first QR (the optional gate is asking): the run ends at once. Before
            // `run()`, the run ends as soon as it starts.
            if runtime.running { _ = finishWithoutQR(.cancelled(by: .local)) }
            return
        }
        if let step = try? sender.handle(.cancel, now: clock.now()) { perform(step.actions, from: nil) }
    }

    // MARK: Driving the state machine

    private func showNextCode() async throws(HandoffError) {
        let (account, rendezvous, configuration, now, registry, typedRoutes, typedWrongGuesses, localGate) =
            (account, rendezvous, options.configuration, clock.now(), registry, typedWayClosed ? [] : options.typedRoutes,
             self.typedWrongGuesses, authenticator.gateDeclaration)
        let random = SessionRandomSource(source: random)
        let next = try await BlockingStep.run(blocking: registry.hasStorage) { () throws(HandoffError) in
            try HandoffSender.start(account: account, rendezvous: rendezvous, configuration: configuration,
                                    random: random.source, now: now, registry: registry, typedRoutes: typedRoutes,
                                    typedWrongGuesses: typedWrongGuesses, localGate: localGate)
        }
        guard runtime.outcome == nil else {
            // The session ended while the registry wrote: this QR is never shown.
            _ = try? next.handle(.cancel, now: clock.now())
            return
        }
        sender = next
        codeWaiters.forEach { $0.resume(returning: next.payload) }
        codeWaiters.removeAll()
        codesShown += 1
        connections = CandidateConnections()
        dropTypedConnections()
        await channel.serve(next.payload)
        await channel.serveTyped(next.typedCode.map { TypedOffer(nameplate: $0.nameplate, routes: typedRoutes) })
        runtime.yield(.showCode(next.payload, typed: try next.typedCode?.copy(), number: codesShown))
        runtime.deadlineMayHaveChanged()
    }

    func handle(_ event: FrameChannelEvent) -> [ChannelDirective] {
        guard let sender, runtime.outcome == nil else { return [] }
        switch event {
        case .frame(let bytes, let peer):
            guard let step = try? sender.handle(.frameReceived(bytes), now: clock.now()) else { return [] }
            return perform(step.actions, from: (peer, bytes))
        case .peerLeft(let peer):
            if let run = typedRuns.removeValue(forKey: peer) {
                // A typed connection left: its run ends, no guess counted; a waiting one may start.
                if let step = try? sender.handle(.typedRunEnded(run), now: clock.now()) { perform(step.actions, from: nil) }
                return startWaitingTypedRun()
            }
            typedWaiting.removeAll { $0.peer == peer }
            channelLost(peer)
            return []
        case .typedConnection(let peer, let route):
            return startTypedRun(for: peer, route: route)
        case .typedNameTaken(let nameplate):
            guard sender.typedCode?.nameplate == nameplate,
                  let step = try? sender.handle(.typedNameTaken, now: clock.now()) else { return [] }
            return perform(step.actions, from: nil)
        }
    }

    /// A typed connection asks for its run: start one, let it wait while 8 are pending, or
    /// close it when the typed way is closed (Spec 6.8).
    private func startTypedRun(for peer: FramePeer, route: TypedRoute) -> [ChannelDirective] {
        guard let sender else { return [.disconnect(peer)] }
        do {
            let step = try sender.handle(.typedRunRequested(route), now: clock.now())
            for case .startTypedRun(let run, let pakeInit) in step.actions {
                typedRuns[peer] = run
                runtime.outbound.enqueue(pakeInit, to: peer)
            }
            return []
        } catch {
            if error == .typedRunsBusy {
                typedWaiting.append((peer, route))
                return []
            }
            return [.disconnect(peer)]
        }
    }

    /// The first waiting typed connection gets a run, once one ended.
    private func startWaitingTypedRun() -> [ChannelDirective] {
        guard !typedWaiting.isEmpty else { return [] }
        let next = typedWaiting.removeFirst()
        return startTypedRun(for: next.peer, route: next.route)
    }

    /// Forgets every typed connection (a new QR, or the typed way withdrawn); the channel closes
    /// those the session did not bind when it is told to serve another offer or none.
    private func dropTypedConnections() {
        typedRuns.removeAll()
        typedWaiting.removeAll()
    }

    /// The channel serves the current typed code, or none: in order with the frames queued
    /// before (a `pakeRefused` leaves before its connection is closed for the new offer).
    private func serveCurrentTypedCode() {
        runtime.outbound.enqueueTypedOffer(sender?.typedCode.map { TypedOffer(nameplate: $0.nameplate, routes: options.typedRoutes) })
    }

    func tick() {
        guard let sender, runtime.outcome == nil, let step = try? sender.handle(.tick, now: clock.now()) else { return }
        perform(step.actions, from: nil)
    }

    func channelLost(_ peer: FramePeer?) {
        guard let sender, runtime.outcome == nil else { return }
        if let peer, !connections.lose(peer) { return }
        if let step = try? sender.handle(.transportLost, now: clock.now()) { perform(step.actions, from: nil) }
    }

    /// Carries out the state machine's actions; for a frame, also what its channel must be told.
    @discardableResult
    private func perform(_ actions: [SenderAction], from frame: (peer: FramePeer, bytes: [UInt8])?) -> [ChannelDirective] {
        var directives: [ChannelDirective] = []
        for action in actions {
            switch action {
            case .send(let bytes):
                connections.recordSent(bytes)
                for target in connections.recipients { runtime.outbound.enqueue(bytes, to: target) }
            case .reply(let bytes):
                if let frame { runtime.outbound.enqueue(bytes, to: frame.peer) }
            case .askForCode:
                if let frame {
                    // The reveal of this action list was recorded, but queued for no one yet.
                    connections.accept(hello: frame.bytes, from: frame.peer)
                    for sent in connections.sentSoFar { runtime.outbound.enqueue(sent, to: frame.peer) }
                    directives.append(.bind(frame.peer))
                }
                runtime.yield(.receiverJoined)
            case .codeMismatch:
                break  // reported once, as enterCode(_:)'s result, to the caller who typed
            case .requestCredential(let receiverGate):
                // Before the gate and the password (Spec 3.6): the person learns what the
                // receiving device declared while nothing secret has been read.
                runtime.yield(.receiverAccepted(receiverGate: receiverGate))
                credentialTask = Task { await self.releaseCredential(receiverGate: receiverGate) }
            case .anotherDeviceJoined:
                runtime.yield(.anotherDeviceJoined)
            case .ignored(let error):
                directives += noteIgnored(error, frame: frame)
            case .finished(let outcome):
                finished(outcome)
            case .startTypedRun:
                break  // handled where the connection asked (startTypedRun(for:route:))
            case .typedCodeRetired(let newCode, let wrongGuesses):
                typedWrongGuesses = wrongGuesses
                dropTypedConnections()
                serveCurrentTypedCode()
                if let copy = try? newCode.copy() { runtime.yield(.typedCodeRetired(newCode: copy, wrongGuesses: wrongGuesses)) }
            case .typedCodeReplaced(let newCode):
                dropTypedConnections()
                serveCurrentTypedCode()
                if let copy = try? newCode.copy() { runtime.yield(.typedCodeReplaced(copy)) }
            case .typedWayWithdrawn(let reason):
                typedWayClosed = true
                dropTypedConnections()
                serveCurrentTypedCode()
                runtime.yield(.typedWayWithdrawn(reason))
            case .pairedByTypedCode(let run):
                if let peer = typedRuns.first(where: { $0.value == run })?.key {
                    connections.bindTyped(peer)
                    directives.append(.bind(peer))
                    directives += typedRuns.keys.filter { $0 != peer }.map { .disconnect($0) }
                    directives += typedWaiting.map { .disconnect($0.peer) }
                }
                dropTypedConnections()
                // After the bind (a directive), not through the writer: the channel must not
                // close the paired connection as one of the old nameplate's.
                directives.append(.serveTyped(nil))
                runtime.yield(.pairedByTypedCode)
            }
        }
        if let frame, let bound = connections.bindIfDecisive(frame.peer, frame: frame.bytes, actions: actions) {
            directives += bound.map { .disconnect($0) }
        }
        return directives
    }

    private func noteIgnored(_ error: HandoffError, frame: (peer: FramePeer, bytes: [UInt8])?) -> [ChannelDirective] {
        if let frame, error == .replayed, connections.admitCandidate(frame.peer, hello: frame.bytes, limit: Self.maximumCandidates) {
            // The accepted hello again, on another connection (Spec 6.7): it gets the same frames.
            for sent in connections.sentSoFar { runtime.outbound.enqueue(sent, to: frame.peer) }
            return [.bind(frame.peer)]
        }
        let (count, report) = runtime.recordIgnored()
        if report { runtime.yield(.framesIgnored(count: count, last: error)) }
        guard let frame, !connections.isCandidate(frame.peer) else { return [] }
        return [.noteIgnored(frame.peer)]
    }

    /// Both people confirmed: authenticate, read the password, hand it to the state machine
    /// (Spec 8.7). The session may end meanwhile; then nothing is read or the read password
    /// is wiped.
    private func releaseCredential(receiverGate: GateDeclaration) async {
        guard let current = sender else { return }
        let purpose = LocalAuthenticationPurpose.sendCredential(account, receiverGate: receiverGate)
        runtime.yield(.authenticating(purpose))
        let result = await authenticator.authenticate(for: purpose)
        guard current === sender, current.phase == .awaitingCredential, !cancelled else { return }
        switch result {
        case .authenticated:
            let credential: SecretBytes
            // A password that cannot be read, or has no guarded memory to go to, is this
            // device's store failing (Spec 6.7, 8.5).
            do { credential = try await readCredential(account) } catch {
                guard current.phase == .awaitingCredential else { return }
                if let step = try? current.handle(.storeUnavailable, now: clock.now()) { perform(step.actions, from: nil) }
                return
            }
            guard current.phase == .awaitingCredential, !cancelled else { return credential.wipe() }
            do {
                // The state machine wipes the buffer in every case (Spec 6.1).
                perform(try current.handle(.credentialProvided(credential), now: clock.now()).actions, from: nil)
                if current.phase == .awaitingReceipt { runtime.yield(.credentialSent) }
            } catch {
                if let step = try? current.handle(.storeUnavailable, now: clock.now()) { perform(step.actions, from: nil) }
            }
        case .cancelled:
            if let step = try? current.handle(.cancel, now: clock.now()) { perform(step.actions, from: nil) }
        case .failed:
            if let step = try? current.handle(.notAuthenticated, now: clock.now()) { perform(step.actions, from: nil) }
        }
    }

    private func finished(_ outcome: SenderOutcome) {
        // An unscanned QR that expired is renewed (Spec 11.8) unless the cap is reached.
        if outcome == .ended(.expired), !connections.hasAcceptedHello, !cancelled, codesShown < options.maximumCodes {
            Task { await self.renew() }
            return
        }
        credentialTask?.cancel()
        _ = runtime.finish(outcome, final: .finished(outcome))
    }

    private func renew() async {
        guard runtime.outcome == nil, !cancelled else {
            if runtime.outcome == nil { _ = runtime.finish(.ended(.cancelled(by: .local)), final: .finished(.ended(.cancelled(by: .local)))) }
            return
        }
        do { try await showNextCode() } catch {
            _ = runtime.finish(.ended(.failed(error)), final: .finished(.ended(.failed(error))))
        }
    }

    private func finishWithoutQR(_ end: SessionEnd) -> SenderOutcome {
        codeWaiters.forEach { $0.resume(returning: nil) }
        codeWaiters.removeAll()
        return runtime.finish(.ended(end), final: .finished(.ended(end)))
    }

    private func outcomeWhenFinished() async -> SenderOutcome {
        await waitForOutcome()
        return runtime.outcome ?? .ended(.failed(.transportLost))
    }
}
