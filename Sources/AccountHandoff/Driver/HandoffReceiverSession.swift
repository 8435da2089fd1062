import Foundation

/// A receiver session that runs itself: it connects, scans, drives a ``HandoffReceiver`` over
/// a ``FrameChannel``, prepares the import when the account is offered, authenticates the
/// person when they accept, imports the delivered account, and reports what to show as
/// ``updates``.
///
/// With the reference transport, the import coordinator and the app's ``LocalAuthenticator``
/// (`gate`: `DeviceOwnerAuthenticator` on Apple platforms, `PAMAuthenticator` on Linux):
///
/// ```swift
/// let session = try HandoffReceiverSession(scannedText: text, importer: coordinator,
///                                          authenticator: gate, registry: registry) { payload in
///     try await ConnectionFrameChannel.connect(to: payload)  // AccountHandoffTransport
/// }
/// Task {
///     for await update in session.updates {
///         switch update {
///         case .codeReady(let code): ui.show(code)        // the sending person types it
///         case .accountOffered(let account, let prepared, let senderGate): ui.review(account, prepared.conflict, senderGate)
///         case .finished(let outcome, let detail): ui.show(detail ?? outcome.message)
///         default: break
///         }
///     }
/// }
/// let outcome = await session.run()
/// ```
///
/// A typed code instead of a QR: ``init(typedCode:route:importer:authenticator:configuration:registry:clock:random:connect:)``
/// with a ``TypedConnector`` that reaches the device showing the code's nameplate; no code is
/// shown on this screen (the person typed it), and a code that did not match the device
/// reached ends the session as `failed.typedCodeMismatch`.
///
/// The password travels only after the importer prepared the account (conflicts chosen, the
/// store writable) and the person passed local authentication (Spec 8.7): a receiver that
/// would decline it never receives it. The receiver session wipes the delivered credential as
/// soon as the importer's `importAccount(_:)` returns (Spec 6.5).
public actor HandoffReceiverSession<Importer: AccountImporter>: SessionDriver {
    /// Opens the channel to the sender named by the QR's rendezvous token. Throw
    /// ``HandoffError/expired`` when the sender answers that it now serves another code
    /// (Spec 11.4); any other error means the sender could not be reached.
    public typealias Connector = @Sendable (SessionPayload) async throws -> any FrameChannel
    /// Typed way: opens the channel to a sending device that shows `nameplate`, by `route`: on
    /// the local network, the one device DNS-SD finds (Spec 11.9; throw
    /// ``HandoffError/senderUnreachable`` for none, and refuse several before any run); through
    /// the relay, the connection paired by the nameplate's token (Spec 12.8).
    public typealias TypedConnector = @Sendable (TypedCode.Nameplate, TypedRoute) async throws -> any FrameChannel

    /// The scanned QR payload; `nil` for a session started from a typed code.
    public nonisolated let payload: SessionPayload?
    /// The typed way's start: the code, the route and the connector; `nil` for a QR session.
    private var typedStart: (code: TypedCode, route: TypedRoute, connect: TypedConnector)?
    /// What to show, in order; finishes after ``ReceiverUpdate/finished(_:detail:)``. One
    /// reader; it holds at most the newest 64 updates for a reader that falls behind (the final
    /// one is never dropped). A view reads ``snapshot`` instead.
    public nonisolated let updates: AsyncStream<ReceiverUpdate<Importer.Preparation>>
    /// What to show now, kept current from the updates: a view reads it without awaiting.
    public nonisolated var snapshot: ReceiverSnapshot<Importer.Preparation> { snapshots.value }
    private nonisolated let snapshots = SnapshotKeeper<ReceiverSnapshot<Importer.Preparation>>()
    /// How long to wait for the sender's reveal after the hello left before giving up.
    public static var revealTimeout: Duration { .seconds(30) }

    var runtime = SessionRuntime<ReceiverUpdate<Importer.Preparation>, ReceiverOutcome>()
    let clock: any HandoffClock
    private let configuration: ReceiverConfiguration
    private let registry: ReceiverRegistry
    private let importer: Importer
    private let authenticator: any LocalAuthenticator
    private let connect: Connector
    private var random: (any RandomSource)?
    private var receiver: HandoffReceiver?
    private var preparation: Importer.Preparation?
    private var importTask: Task<Void, Never>?
    private var accepting = false
    private var authenticationTask: Task<LocalAuthenticationResult, Never>?
    private var revealDeadline: Date?
    private var finalDetail: String?
    /// The connector while it runs: a cancel stops it (a relay may keep it waiting for
    /// minutes, Spec 11.8).
    private var connecting: Task<any FrameChannel, any Error>?
    /// ``cancel()`` came before ``run()``: the run ends as soon as it starts.
    private var cancelledBeforeConnecting = false

    /// The peer of a receiver's channel.
    static var sender: FramePeer { FramePeer(id: 0) }

    /// Prepares a session for a decoded QR; nothing is claimed or sent until ``run()``.
    ///
    /// - Parameters:
    ///   - payload: the scanned QR.
    ///   - importer: prepares and completes the import (for example an `ImportCoordinator`).
    ///   - authenticator: the local-authentication gate run when the person accepts.
    ///   - configuration: the clock-skew tolerance.
    ///   - registry: the device's record of used QRs, so a QR works once (keep one per device,
    ///     durable if you can).
    ///   - clock: the time source.
    ///   - random: the randomness source (``SystemRandomSource`` in production).
    ///   - connect: opens the channel to the sender.
    public init(payload: SessionPayload, importer: Importer, authenticator: any LocalAuthenticator,
                configuration: ReceiverConfiguration = .standard, registry: ReceiverRegistry,
                clock: any HandoffClock = SystemHandoffClock(),
                random: sending any RandomSource = SystemRandomSource(), connect: @escaping Connector) {
        self.payload = payload
        expiryDate = payload.expiryDate
        self.importer = importer
        self.authenticator = authenticator
        self.configuration = configuration
        self.registry = registry
        self.clock = clock
        self.random = random
        self.connect = connect
        updates = runtime.updates
        runtime.observer = { [snapshots] in snapshots.apply($0) }
    }

    /// The ``snapshot`` each time it changes, starting with the current one, until the session
    /// ended. Any number of readers may follow; each stream keeps only the newest snapshot.
    public nonisolated func snapshotChanges() -> AsyncStream<ReceiverSnapshot<Importer.Preparation>> { snapshots.follow() }

    /// Prepares a session for a scanned QR text.
    ///
    /// - Throws: the decoding errors of ``SessionPayload/init(text:)``.
    public init(scannedText: String, importer: Importer, authenticator: any LocalAuthenticator,
                configuration: ReceiverConfiguration = .standard, registry: ReceiverRegistry,
                clock: any HandoffClock = SystemHandoffClock(),
                random: sending any RandomSource = SystemRandomSource(), connect: @escaping Connector) throws(HandoffError) {
        self.init(payload: try SessionPayload(text: scannedText), importer: importer, authenticator: authenticator,
                  configuration: configuration, registry: registry, clock: clock, random: random, connect: connect)
    }

    /// Prepares a session for a typed code (Spec 6.8); nothing is claimed or sent until
    /// ``run()``, and then nothing until the sending device's `pakeInit` arrives.
    ///
    /// - Parameters:
    ///   - code: the code the person typed, read with ``TypedCode/init(entry:)`` (a typo or six
    ///     digits are refused there, costing nothing); the session owns and wipes it.
    ///   - route: how to reach the sending device.
    ///   - importer, authenticator, configuration, registry, clock, random: as for a QR.
    ///   - connect: opens the channel to the device that shows the code's nameplate.
    public init(typedCode code: TypedCode, route: TypedRoute, importer: Importer, authenticator: any LocalAuthenticator,
                configuration: ReceiverConfiguration = .standard, registry: ReceiverRegistry,
                clock: any HandoffClock = SystemHandoffClock(),
                random: sending any RandomSource = SystemRandomSource(), connect: @escaping TypedConnector) {
        payload = nil
        // Until the pakeInit names the expiry: the latest one this device would accept (Spec 2.5 S3).
        expiryDate = clock.now().addingTimeInterval(Double(SenderConfiguration.maximumLifetime))
        typedStart = (code, route, connect)
        self.importer = importer
        self.authenticator = authenticator
        self.configuration = configuration
        self.registry = registry
        self.clock = clock
        self.random = random
        self.connect = { _ in throw HandoffError.senderUnreachable }
        updates = runtime.updates
        runtime.observer = { [snapshots] in snapshots.apply($0) }
    }

    /// The short code, once the sender revealed its part.
    public var shortCode: ShortCode? { receiver?.shortCode }
    /// The offered account, once the offer arrived (it stays available after the end).
    public var offeredAccount: AccountMetadata? { receiver?.offeredAccount }
    /// The session's phase, once it started.
    public var phase: ReceiverPhase? { receiver?.phase }
    /// The outcome, once the session ended.
    public var outcome: ReceiverOutcome? { runtime.outcome }
    /// The importer's sentence about how the session ended, when it has one.
    public var detail: String? { finalDetail }
    /// When the sender stops: what a countdown on this device shows. A typed session learns it
    /// from the `pakeInit` (``receiverExpiryDate``); until then it is the latest it would accept.
    public nonisolated let expiryDate: Date
    /// The expiry the session's state machine holds: the QR's, or the `pakeInit`'s once it came.
    public var receiverExpiryDate: Date { receiver?.expiryDate ?? expiryDate }

    var nextDeadline: Date? {
        guard let deadline = receiver?.nextDeadline else { return nil }
        return revealDeadline.map { min($0, deadline) } ?? deadline
    }

    /// Connects, scans, runs the session until it ends, then closes the channel (after the
    /// last frame left) and returns the outcome. Calling it again returns the same outcome.
    ///
    /// A scan that is refused (expired, already used, ...) ends as `.ended(.failed(error))`,
    /// or `.ended(.expired)`; a connection that cannot be made ends as `.ended(.expired)` when
    /// the sender's expiry has passed or it serves another code, as
    /// `.ended(.failed(.secureMemoryUnavailable(_)))` when the connector could not get guarded
    /// memory for the transport keys, and as `.ended(.failed(.senderUnreachable))` otherwise.
    /// Nothing is claimed or sent then.
    ///
    /// Cancelling the task that awaits it is ``cancel()``: the sending device is told once
    /// connected, the connection closes, and the outcome is `.ended(.cancelled(by: .local))`
    /// (during an import, the import rolls back and the outcome is `.completed(.cancelled)`).
    public func run() async -> ReceiverOutcome {
        await withTaskCancellationHandler {
            await runUntilFinished()
        } onCancel: {
            Task { await self.cancel() }
        }
    }

    private func runUntilFinished() async -> ReceiverOutcome {
        if runtime.running || runtime.outcome != nil { return await outcomeWhenFinished() }
        runtime.running = true
        if cancelledBeforeConnecting || Task.isCancelled { return end(.ended(.cancelled(by: .local))) }
        guard let payload else { return await runTyped() }
        // The code is checked completely before any connection is made (Spec 2.5 S0-S4).
        do {
            try HandoffReceiver.check(payload: payload, configuration: configuration, now: clock.now(), registry: registry)
        } catch {
            return end(.ended(error == .expired ? .expired : .failed(error)))
        }
        let channel: any FrameChannel
        let connect = self.connect
        let connecting = Task { try await connect(payload) }
        self.connecting = connecting
        defer { self.connecting = nil }
        do {
            channel = try await withTaskCancellationHandler { try await connecting.value } onCancel: { connecting.cancel() }
        } catch {
            if runtime.outcome != nil || Task.isCancelled { return end(.ended(.cancelled(by: .local))) }
            // The transport keys (Spec 11.3) need guarded memory too; its refusal is no unreachable sender.
            if let refused = error as? HandoffError, refused.code == .secureMemoryUnavailable { return end(.ended(.failed(refused))) }
            let replaced = (error as? HandoffError) == .expired
            let expired = replaced || clock.now() >= payload.expiryDate
            return end(.ended(expired ? .expired : .failed(.senderUnreachable)))
        }
        guard let random, runtime.outcome == nil else {
            await channel.close()
            return await outcomeWhenFinished()
        }
        self.random = nil
        let started: (receiver: HandoffReceiver, step: ReceiverStep)
        let (configuration, now, registry, source, localGate) =
            (configuration, clock.now(), registry, SessionRandomSource(source: random), authenticator.gateDeclaration)
        do {
            started = try await BlockingStep.run(blocking: registry.hasStorage) { () throws(HandoffError) in
                try HandoffReceiver.scan(payload: payload, configuration: configuration, random: source.source, now: now, registry: registry,
                                         localGate: localGate)
            }
        } catch {
            await channel.close()
            return end(.ended(error == .expired ? .expired : .failed(error)))
        }
        guard runtime.outcome == nil else {
            // Cancelled while the registry wrote: no hello leaves, so the claim goes back (Spec 6.3).
            _ = try? started.receiver.handle(.cancel, now: clock.now())
            registry.release(payload.transferID)
            await channel.close()
            return await outcomeWhenFinished()
        }
        receiver = started.receiver
        revealDeadline = clock.now().addingTimeInterval(Self.revealTimeout.seconds)
        runtime.yield(.connected(expires: payload.expiryDate))
        perform(started.step.actions)
        await runLoop(over: channel)
        return await outcomeWhenFinished()
    }

    // MARK: Decisions

    /// The receiving person accepts the offered account. The session checks that the import
    /// is ready (every conflict has a choice, the store is writable), asks the
    /// ``LocalAuthenticator``, and only then sends the accept that lets the password travel.
    /// A refused or failed authentication, or a store that can no longer take the account,
    /// ends the session (see ``updates``) without anything sent.
    ///
    /// - Throws: ``HandoffError/importChoiceRequired`` when a conflict has no choice yet
    ///   (nothing happened; ask the person, then accept again);
    ///   ``HandoffError/invalidEvent(_:in:)`` when no account is offered (yet);
    ///   ``HandoffError/sessionFinished`` after the end.
    public func accept() async throws(HandoffError) {
        try await accept(choosing: nil)
    }

    /// The receiving person decided about the offered account, in one call: records `choice`
    /// (when the offer conflicts with a stored account), then accepts as ``accept()`` does,
    /// or, when the choice declines the account (for `ImportCoordinator`: `.cancel`), rejects
    /// it: the session ends as `.ended(.rejected(by: .local))` here and
    /// `.ended(.rejected(by: .peer))` on the sending device, and nothing travels.
    ///
    /// - Parameter choice: the person's choice, or `nil` when there was nothing to choose.
    /// - Throws: ``HandoffError/importChoiceRequired`` when a conflict has no choice yet or
    ///   `choice` does not apply to it (nothing happened; ask the person, then call again);
    ///   ``HandoffError/invalidEvent(_:in:)`` when no account is offered (yet);
    ///   ``HandoffError/sessionFinished`` after the end.
    public func accept(choosing choice: Importer.Preparation.Choice?) async throws(HandoffError) {
        guard let receiver, runtime.outcome == nil else { throw .sessionFinished }
        guard receiver.phase == .reviewingOffer, let preparation, let account = receiver.offeredAccount, !accepting else {
            throw .invalidEvent(.accept, in: .receiver(receiver.phase))
        }
        if let choice {
            let decision: ImportDecision
            do throws(ImportNotReady) { decision = try preparation.record(choice) } catch {
                switch error {
                case .choiceRequired: throw .importChoiceRequired
                case .storeUnavailable(let reason):
                    finalDetail = reason
                    feed(.storeUnavailable)
                    return
                }
            }
            switch decision {
            case .importAccount: break
            case .decline:
                feed(.reject)
                return
            }
        }
        accepting = true
        defer { accepting = false }
        do throws(ImportNotReady) {
            // The check asks the stores, which may block.
            try await BlockingStep.run(blocking: preparation.checkReadyMayBlock) { () throws(ImportNotReady) in try preparation.checkReady() }
        } catch {
            switch error {
            case .choiceRequired:
                throw .importChoiceRequired
            case .storeUnavailable(let reason):
                finalDetail = reason
                feed(.storeUnavailable)
                return
            }
        }
        guard receiver.phase == .reviewingOffer, runtime.outcome == nil else { return }
        let purpose = LocalAuthenticationPurpose.receiveCredential(account)
        runtime.yield(.authenticating(purpose))
        let authenticator = self.authenticator
        let task = Task { await authenticator.authenticate(for: purpose) }
        authenticationTask = task
        let result = await task.value
        authenticationTask = nil
        guard receiver.phase == .reviewingOffer, runtime.outcome == nil else { return }
        switch result {
        case .authenticated:
            feed(.accept)
            if receiver.phase == .awaitingCredentialFrame { runtime.yield(.accepted) }
        case .cancelled: feed(.cancel)
        case .failed: feed(.notAuthenticated)
        }
    }

    /// The receiving person declined the account (or its code looked wrong).
    ///
    /// - Throws: ``HandoffError/invalidEvent(_:in:)`` before a code exists or while importing.
    public func reject() throws(HandoffError) {
        guard let receiver, runtime.outcome == nil else { throw .sessionFinished }
        perform(try receiver.handle(.reject, now: clock.now()).actions)
    }

    /// Cancels the transfer. While the account is being imported, this asks the importer to
    /// stop (its task is cancelled; it rolls back and reports ``ReceiptStatus/cancelled``).
    /// A no-op after the end.
    public func cancel() {
        if let importTask {
            importTask.cancel()
            return
        }
        guard let receiver else {
            if runtime.running, runtime.outcome == nil { _ = end(.ended(.cancelled(by: .local))) }
            if !runtime.running { cancelledBeforeConnecting = true }
            connecting?.cancel()
            return
        }
        authenticationTask?.cancel()
        _ = receiver
        feed(.cancel)
    }

    // MARK: Driving the state machine

    private func feed(_ event: ReceiverEvent) {
        guard let receiver, runtime.outcome == nil, let step = try? receiver.handle(event, now: clock.now()) else { return }
        perform(step.actions)
    }

    func handle(_ event: FrameChannelEvent) async -> [ChannelDirective] {
        let awaitedPakeInit = receiver?.phase == .awaitingPakeInit
        switch event {
        case .frame(let bytes, _) where awaitedPakeInit && registry.hasStorage: await feedOnPool(bytes)
        case .frame(let bytes, _): feed(.frameReceived(bytes))
        case .peerLeft: feed(.transportLost)
        case .typedConnection, .typedNameTaken: break  // a sending device's events
        }
        // The pakeInit gives the sending device's expiry (Spec 6.8): the countdown follows it.
        if awaitedPakeInit, receiver?.phase == .awaitingPakeConfirm, runtime.outcome == nil {
            runtime.yield(.connected(expires: receiverExpiryDate))
        }
        return []
    }

    /// The typed way (Spec 6.8): refuse a code this device already ran before connecting,
    /// connect, start the state machine (nothing is sent until the `pakeInit`), run.
    private func runTyped() async -> ReceiverOutcome {
        guard let (code, route, connect) = typedStart else { return end(.ended(.failed(.invalidConfiguration))) }
        typedStart = nil
        // Memory only: the claim itself comes with the pakeInit (Spec 6.3).
        if registry.hasClaimed(code.claimID) {
            code.wipe()
            return end(.ended(.failed(.typedCodeAlreadyUsed)))
        }
        let nameplate = code.nameplate
        let connecting = Task { try await connect(nameplate, route) }
        self.connecting = connecting
        defer { self.connecting = nil }
        let channel: any FrameChannel
        do {
            channel = try await withTaskCancellationHandler { try await connecting.value } onCancel: { connecting.cancel() }
        } catch {
            code.wipe()
            if runtime.outcome != nil || Task.isCancelled { return end(.ended(.cancelled(by: .local))) }
            return end(.ended(.failed((error as? HandoffError) ?? .senderUnreachable)))
        }
        guard let random, runtime.outcome == nil else {
            code.wipe()
            await channel.close()
            return await outcomeWhenFinished()
        }
        self.random = nil
        do {
            receiver = try HandoffReceiver.startTyped(code: code, route: route, configuration: configuration, random: random,
                                                      now: clock.now(), registry: registry, localGate: authenticator.gateDeclaration)
        } catch {
            await channel.close()
            return end(.ended(.failed(error)))
        }
        revealDeadline = clock.now().addingTimeInterval(Self.revealTimeout.seconds)
        runtime.yield(.connected(expires: expiryDate))
        await runLoop(over: channel)
        return await outcomeWhenFinished()
    }

    /// A frame in `awaitingPakeInit` with a registry that has storage: its step claims the
    /// typed code (Spec 6.3), which blocks, so the state machine takes it on the I/O pool,
    /// out of the session's hands meanwhile (a cancel then ends the session at once, and the
    /// step's reply never leaves).
    private func feedOnPool(_ bytes: [UInt8]) async {
        guard let taken = receiver, runtime.outcome == nil else { return }
        receiver = nil
        let owned = ReceiverInStep(receiver: taken)
        let now = clock.now()
        let step = await BlockingStep.run(blocking: true) { try? owned.receiver.handle(.frameReceived(bytes), now: now) }
        receiver = taken
        guard runtime.outcome == nil else {
            _ = try? taken.handle(.cancel, now: clock.now())  // wipes what the step kept
            return
        }
        if let step { perform(step.actions) }
        runtime.deadlineMayHaveChanged()
    }

    func tick() {
        if let revealDeadline, clock.now() >= revealDeadline {
            // The reveal wait is over; after it only the expiry wakes the timer (a deadline left
            // in the past would be fed to `tick` again and again until the expiry).
            self.revealDeadline = nil
            let waiting = receiver?.phase == .awaitingReveal || receiver?.phase == .awaitingPakeInit
                || receiver?.phase == .awaitingPakeConfirm
            if waiting, clock.now() < receiverExpiryDate {
                // A silent sender must not hold this device until the code expires (Spec 6.7).
                let seconds = SentenceArgument.number(Int(Self.revealTimeout.seconds))
                // After the pakeReply the code is used up: the outcome's own sentence says so.
                if receiver?.phase == .awaitingReveal {
                    finalDetail = sentenceCatalog.sentence("receiver.senderSilent.scanAgain", seconds, in: .current)
                }
                if receiver?.phase == .awaitingPakeInit {
                    finalDetail = sentenceCatalog.sentence("receiver.senderSilent.typeAgain", seconds, in: .current)
                }
                feed(.transportLost)
                return
            }
        }
        feed(.tick)
        runtime.deadlineMayHaveChanged()
    }

    func channelLost(_ peer: FramePeer?) { feed(.transportLost) }

    private func perform(_ actions: [ReceiverAction]) {
        for action in actions {
            switch action {
            case .send(let frame):
                runtime.outbound.enqueue(frame, to: Self.sender)
            case .showShortCode(let code):
                revealDeadline = nil
                runtime.deadlineMayHaveChanged()
                runtime.yield(.codeReady(code))
            case .showAccount(let account, let senderGate):
                Task { await self.prepareImport(of: account, senderGate: senderGate) }
            case .deliverAccount(let account):
                runtime.yield(.importing(account.metadata))
                importTask = Task { await self.runImport(account) }
            case .ignored(let error):
                let (count, report) = runtime.recordIgnored()
                if report { runtime.yield(.framesIgnored(count: count, last: error)) }
            case .finished(let outcome):
                _ = end(outcome)
            }
        }
    }

    /// The offer arrived: the importer prepares it before the person can accept (Spec 6.2).
    private func prepareImport(of account: AccountMetadata, senderGate: GateDeclaration) async {
        do {
            let prepared = try await importer.prepareImport(of: account)
            guard runtime.outcome == nil, receiver?.phase == .reviewingOffer else { return prepared.abandon() }
            preparation = prepared
            runtime.yield(.accountOffered(account, prepared, senderGate: senderGate))
        } catch {
            finalDetail = error.sentence(in: .current)
            feed(.storeUnavailable)
        }
    }

    /// The password arrived: the importer stores, validates and commits or rolls back; the
    /// receiver session wipes the delivered credential as soon as the importer's
    /// `importAccount(_:)` returns (Spec 6.5).
    private func runImport(_ account: ImportedAccount) async {
        let report: ImportReport
        if let preparation {
            report = await preparation.importAccount(account)
        } else {
            report = ImportReport(status: .declined, message: sentenceCatalog.sentence("receiver.import.notPrepared", in: .current))
        }
        account.credential.wipe()
        importTask = nil
        finalDetail = report.message
        feed(.importFinished(report.status))
    }

    private func end(_ outcome: ReceiverOutcome) -> ReceiverOutcome {
        if importTask == nil, case .ended = outcome { preparation?.abandon() }
        return runtime.finish(outcome, final: .finished(outcome, detail: finalDetail))
    }

    private func outcomeWhenFinished() async -> ReceiverOutcome {
        await waitForOutcome()
        return runtime.outcome ?? .ended(.failed(.transportLost))
    }
}

extension Duration {
    /// The duration in seconds, with its fraction.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

/// A receiver handed to the I/O pool for one step and back.
private struct ReceiverInStep: @unchecked Sendable {
    // Safety of @unchecked Sendable: the session sets its `receiver` to `nil` while the step
    // runs and takes it back after awaiting it, so no two threads ever use the receiver at once.
    let receiver: HandoffReceiver
}
