import Foundation

/// A receiver session that runs itself: it connects, scans, drives a ``HandoffReceiver`` over
/// a ``FrameChannel``, hands the delivered account to an ``AccountImporter``, reads the clock
/// only at the session's next deadline, and reports what to show as ``updates``.
///
/// ```swift
/// let session = try HandoffReceiverSession(scannedText: text, importer: importer) {
///     try await TCPFrameChannel.connect(to: rendezvous)
/// }
/// Task {
///     for await update in session.updates {
///         switch update {
///         case .codeReady(let code): ui.showCode(code)
///         case .accountOffered(let account): ui.askToImport(account)  // then session.accept()
///         case .finished(let outcome): ui.show(outcome.message)
///         default: ui.show(update)
///         }
///     }
/// }
/// let outcome = await session.run()
/// ```
public actor HandoffReceiverSession {
    /// Opens the channel to the sender named by the QR's rendezvous token.
    public typealias Connector = @Sendable (SessionPayload) async throws -> any FrameChannel

    /// The scanned QR payload.
    public nonisolated let payload: SessionPayload
    /// What to show, in order; finishes after ``ReceiverUpdate/finished(_:)``.
    public nonisolated let updates: AsyncStream<ReceiverUpdate>

    private let configuration: ReceiverConfiguration
    private let registry: ReceiverRegistry?
    private let clock: any HandoffClock
    private let importer: any AccountImporter
    private let connect: Connector
    private var random: (any RandomSource)?
    private let updateSink: AsyncStream<ReceiverUpdate>.Continuation
    private let outbound = OutboundQueue()
    private let deadlineChanges: AsyncStream<Void>
    private let deadlineSink: AsyncStream<Void>.Continuation
    private var receiver: HandoffReceiver?
    private var finalOutcome: ReceiverOutcome?
    private var importTask: Task<Void, Never>?
    private var ignored = IgnoredFrameCounter()
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []
    private var running = false

    /// The peer of a receiver's channel.
    static let sender = FramePeer(id: 0)

    /// Prepares a session for a decoded QR; nothing is claimed or sent until ``run()``.
    public init(payload: SessionPayload, importer: any AccountImporter,
                configuration: ReceiverConfiguration = .standard, registry: ReceiverRegistry? = nil,
                clock: any HandoffClock = SystemHandoffClock(),
                random: sending any RandomSource = SystemRandomSource(), connect: @escaping Connector) {
        self.payload = payload
        self.importer = importer
        self.configuration = configuration
        self.registry = registry
        self.clock = clock
        self.random = random
        self.connect = connect
        (updates, updateSink) = AsyncStream.makeStream(of: ReceiverUpdate.self)
        (deadlineChanges, deadlineSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Prepares a session for a scanned QR text.
    ///
    /// - Throws: the decoding errors of ``SessionPayload/init(text:)``.
    public init(scannedText: String, importer: any AccountImporter,
                configuration: ReceiverConfiguration = .standard, registry: ReceiverRegistry? = nil,
                clock: any HandoffClock = SystemHandoffClock(),
                random: sending any RandomSource = SystemRandomSource(), connect: @escaping Connector) throws(HandoffError) {
        self.init(payload: try SessionPayload(text: scannedText), importer: importer, configuration: configuration,
                  registry: registry, clock: clock, random: random, connect: connect)
    }

    /// The short code, once the sender revealed its part.
    public var shortCode: ShortCode? { receiver?.shortCode }
    /// The session's phase, once it started.
    public var phase: ReceiverPhase? { receiver?.phase }
    /// The outcome, once the session ended.
    public var outcome: ReceiverOutcome? { finalOutcome }
    /// When the sender stops: what a countdown on this device shows.
    public nonisolated var expiryDate: Date { payload.expiryDate }

    /// Connects, scans, runs the session until it ends, then closes the channel (after the
    /// last frame left) and returns the outcome. Calling it again returns the same outcome.
    ///
    /// A scan that is refused (expired, already used, ...) ends as `.ended(.failed(error))`,
    /// or `.ended(.expired)`; a connection that cannot be made ends as `.ended(.expired)` when
    /// the sender's expiry has passed (it stopped listening) and as
    /// `.ended(.failed(.senderUnreachable))` otherwise. Nothing is claimed or sent then.
    public func run() async -> ReceiverOutcome {
        if running || finalOutcome != nil { return await outcomeWhenFinished() }
        running = true
        let channel: any FrameChannel
        do {
            channel = try await connect(payload)
        } catch {
            let expired = clock.now() >= payload.expiryDate
            return end(.ended(expired ? .expired : .failed(.senderUnreachable)))
        }
        guard let random else { return end(.ended(.failed(.sessionFinished))) }
        self.random = nil
        let started: (receiver: HandoffReceiver, step: ReceiverStep)
        do {
            started = try HandoffReceiver.scan(payload: payload, configuration: configuration, random: random,
                                               now: clock.now(), registry: registry)
        } catch {
            await channel.close()
            return end(.ended(error == .expired ? .expired : .failed(error)))
        }
        receiver = started.receiver
        updateSink.yield(.connected(expires: payload.expiryDate))
        perform(started.step.actions)
        let writer = Task { await self.writeFrames(to: channel) }
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

    /// The receiving person confirmed the code and the offered account (and chose how to
    /// import it, when an account with the same identity exists).
    ///
    /// - Throws: ``HandoffError/invalidEvent(_:in:)`` when no account is offered yet.
    public func accept() throws(HandoffError) {
        try feed(.codeConfirmed)
        if receiver?.phase == .awaitingCredentialFrame { updateSink.yield(.accepted) }
    }

    /// The receiving person typed the code shown on the sending device: accepts when it
    /// matches (compared in constant time, Spec 4.4), rejects otherwise.
    ///
    /// - Returns: whether the typed code matched.
    /// - Throws: as ``accept()``.
    public func accept(typedCode typed: String) throws(HandoffError) -> Bool {
        guard let code = receiver?.shortCode else { throw .invalidEvent(.codeConfirmed, in: .receiver(receiver?.phase ?? .awaitingReveal)) }
        if code.matches(typed: typed) {
            try accept()
            return true
        }
        try feed(.codeRejected)
        return false
    }

    /// The receiving person saw different codes, or declined the account.
    ///
    /// - Throws: ``HandoffError/invalidEvent(_:in:)`` before a code exists or while importing.
    public func reject() throws(HandoffError) {
        try feed(.codeRejected)
    }

    /// Cancels the transfer. While the account is being imported, this asks the importer to
    /// stop (its task is cancelled) and the session ends with whatever the importer reports.
    /// A no-op after the end.
    public func cancel() {
        if let importTask {
            importTask.cancel()
            return
        }
        try? feed(.cancel)
    }

    // MARK: Driving the state machine

    private func feed(_ event: ReceiverEvent) throws(HandoffError) {
        guard let receiver else { throw .invalidEvent(LocalEvent(event) ?? .tick, in: .receiver(.awaitingReveal)) }
        let step = try receiver.handle(event, now: clock.now())
        perform(step.actions)
        deadlineSink.yield()
    }

    private func perform(_ actions: [ReceiverAction]) {
        for action in actions {
            switch action {
            case .send(let frame):
                outbound.enqueue(frame, to: Self.sender)
            case .showShortCode(let code):
                updateSink.yield(.codeReady(code))
            case .showAccount(let account):
                updateSink.yield(.accountOffered(account))
            case .deliverAccount(let account):
                updateSink.yield(.importing(account.metadata))
                let importer = self.importer
                importTask = Task {
                    let status = await importer.importAccount(account)
                    self.importFinished(status)
                }
            case .ignored(let error):
                if ignored.record() { updateSink.yield(.framesIgnored(count: ignored.count, last: error)) }
            case .finished(let outcome):
                _ = end(outcome)
            }
        }
    }

    private func importFinished(_ status: ReceiptStatus) {
        importTask = nil
        try? feed(.importFinished(status))
    }

    private func end(_ outcome: ReceiverOutcome) -> ReceiverOutcome {
        guard finalOutcome == nil else { return finalOutcome ?? outcome }
        finalOutcome = outcome
        outbound.finish()
        updateSink.yield(.finished(outcome))
        updateSink.finish()
        deadlineSink.finish()
        for waiter in finishWaiters { waiter.resume() }
        finishWaiters.removeAll()
        return outcome
    }

    private func outcomeWhenFinished() async -> ReceiverOutcome {
        if let finalOutcome { return finalOutcome }
        await withCheckedContinuation { finishWaiters.append($0) }
        return finalOutcome ?? .ended(.failed(.transportLost))
    }

    // MARK: Tasks

    private func writeFrames(to channel: any FrameChannel) async {
        for await item in outbound.items {
            do { try await channel.send(item.frame, to: item.peer) } catch { try? feed(.transportLost) }
        }
    }

    private func readFrames(from channel: any FrameChannel) async {
        do {
            while let event = try await channel.receive() {
                switch event {
                case .frame(let bytes, _): try? feed(.frameReceived(bytes))
                case .peerLeft: try? feed(.transportLost)
                }
                if finalOutcome != nil { return }
            }
        } catch {}
        if finalOutcome == nil { try? feed(.transportLost) }
    }

    private func keepTime() async {
        var changes = deadlineChanges.makeAsyncIterator()
        while finalOutcome == nil {
            guard let deadline = receiver?.nextDeadline else {
                guard await changes.next() != nil else { return }
                continue
            }
            do { try await clock.sleep(until: deadline) } catch { return }
            try? feed(.tick)
        }
    }
}

extension LocalEvent {
    /// The local event a receiver event is, or `nil` for a frame.
    init?(_ event: ReceiverEvent) {
        switch event {
        case .frameReceived: return nil
        case .codeConfirmed: self = .codeConfirmed
        case .codeRejected: self = .codeRejected
        case .cancel: self = .cancel
        case .importFinished: self = .importFinished
        case .tick: self = .tick
        case .transportLost: self = .transportLost
        }
    }
}
