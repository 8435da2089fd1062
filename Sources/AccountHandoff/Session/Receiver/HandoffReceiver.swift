import Foundation

/// The receiving side of a handoff as a sans-IO state machine (Spec 6.2).
///
/// Created by ``scan(payload:expecting:configuration:random:now:registry:)`` from a decoded QR;
/// the app then feeds ``ReceiverEvent``s with the current time and carries out the returned
/// ``ReceiverAction``s. Most apps use ``HandoffReceiverSession``, which does that loop.
///
/// Admission (Spec 8.5): `scan` reserves, in the guarded memory pool, every secret the session
/// can hold at once until it ends (the key schedule, the short code, the longest offer, the
/// credential and the delivered password), or throws
/// ``HandoffError/secureMemoryUnavailable(_:)`` and gives its claim back; every later step
/// draws from that reservation, which goes back to the pool when the session ends.
public final class HandoffReceiver {
    /// The scanned QR payload.
    public let payload: SessionPayload

    /// The guarded memory set aside for this session at `scan`, bound while it runs a step and
    /// handed back when it finishes.
    package let memory: SecureMemoryReservation
    private let configuration: ReceiverConfiguration
    private var clock: SessionClock
    private var state: ReceiverState

    /// Starts a session from a scanned QR (Spec 2.5): checks intent and expiry, claims the QR,
    /// derives the keys and returns the hello to send. No code exists until the sender's
    /// reveal arrives.
    ///
    /// - Parameters:
    ///   - payload: the decoded QR.
    ///   - intent: what the receiving person asked to do; must match the QR.
    ///   - configuration: clock-skew tolerance.
    ///   - random: the randomness source (``SystemRandomSource`` in production).
    ///   - now: the current time.
    ///   - registry: the device's record of used QRs; a QR works once per device.
    /// - Throws: ``HandoffError/invalidClock``, ``HandoffError/wrongIntent(_:)``,
    ///   ``HandoffError/expired``, ``HandoffError/expiryTooFar``, ``HandoffError/alreadyScanned``,
    ///   ``HandoffError/registryUnavailable(_:)``, ``HandoffError/lowOrderPublicKey``,
    ///   ``HandoffError/secureMemoryUnavailable(_:)`` (the pool cannot set aside what the
    ///   session needs: the memory-lock limit, the map count or the pool's cap is reached), in
    ///   the order of Spec 2.5; the claim is given back for the last two.
    public static func scan(payload: SessionPayload, expecting intent: TransferIntent = .sendAccount,
                            configuration: ReceiverConfiguration = .standard, random: RandomSource,
                            now: Date, registry: ReceiverRegistry? = nil) throws(HandoffError) -> (receiver: HandoffReceiver, step: ReceiverStep) {
        let clock = try checkTime(payload: payload, expecting: intent, configuration: configuration, now: now)
        try registry?.claim(payload)
        let memory: SecureMemoryReservation
        let channel: SecureChannel
        let hello: [UInt8]
        do throws(HandoffError) {
            do { memory = try GuardedAllocator.reserve(SessionMemory.receiver) } catch { throw .secureMemoryUnavailable(error) }
            do {
                (channel, hello) = try memory.bind { () throws(HandoffError) in try Self.handshake(payload, random: random) }
            } catch {
                memory.end()
                throw error
            }
        } catch {
            registry?.release(payload.transferID)
            throw error
        }
        let receiver = HandoffReceiver(payload: payload, memory: memory, configuration: configuration, clock: clock,
                                       state: .awaitingReveal(ReceiverAwaitingReveal(channel: channel)))
        return (receiver, ReceiverStep(actions: [.send(hello)], nextDeadline: receiver.nextDeadline))
    }

    /// Steps S0-S4 without the claim: whether a scan of `payload` now would pass them. A
    /// driver checks this before it connects, so that an expired, far-future or already used
    /// code never opens a connection (the scan itself checks again and claims).
    ///
    /// - Throws: the errors of steps S0-S4 (``HandoffError/alreadyScanned`` when `registry`
    ///   already holds the transfer ID).
    public static func check(payload: SessionPayload, expecting intent: TransferIntent = .sendAccount,
                             configuration: ReceiverConfiguration = .standard, now: Date,
                             registry: ReceiverRegistry? = nil) throws(HandoffError) {
        _ = try checkTime(payload: payload, expecting: intent, configuration: configuration, now: now)
        if registry?.hasClaimed(payload.transferID) == true { throw .alreadyScanned }
    }

    /// Steps S0-S3.
    private static func checkTime(payload: SessionPayload, expecting intent: TransferIntent,
                                  configuration: ReceiverConfiguration, now: Date) throws(HandoffError) -> SessionClock {
        let clock = try SessionClock(start: now)
        guard payload.intent == intent else { throw .wrongIntent(payload.intent.rawValue) }
        let skew = Double(configuration.clockSkewTolerance)
        guard clock.time < Double(payload.expiry) + skew else { throw .expired }
        guard Double(payload.expiry) <= clock.time + Double(SenderConfiguration.maximumLifetime) + skew else { throw .expiryTooFar }
        return clock
    }

    /// Steps S5-S7: draws the key pair, derives the keys, builds the hello; the private key
    /// and the commitment copy are wiped before returning.
    private static func handshake(_ payload: SessionPayload, random: RandomSource) throws(HandoffError) -> (SecureChannel, [UInt8]) {
        let keyPair = try X25519KeyPair(random: random)
        defer { keyPair.wipe() }
        let commitment = try SecretBytes(copying: payload.commitment)
        defer { commitment.wipe() }
        var transcript = Transcript(payload: payload)
        let (keys, hello) = try HelloHandshake.make(payload: payload, keyPair: keyPair, commitment: commitment,
                                                    initial: transcript)
        transcript.absorb(frame: hello)
        return (SecureChannel(role: .receiver, payload: payload, keys: keys, transcript: transcript), hello)
    }

    private init(payload: SessionPayload, memory: SecureMemoryReservation, configuration: ReceiverConfiguration,
                 clock: SessionClock, state: ReceiverState) {
        self.payload = payload
        self.memory = memory
        self.configuration = configuration
        self.clock = clock
        self.state = state
    }

    /// The current phase.
    public var phase: ReceiverPhase { state.phase }

    /// How the session ended, once it has.
    public var outcome: ReceiverOutcome? {
        guard case .finished(let finished) = state else { return nil }
        return finished.outcome
    }

    /// The short code, once the sender's reveal arrived (it stays available after the end).
    public var shortCode: ShortCode? { state.shortCode }

    /// The offered account, once the offer arrived.
    public var offeredAccount: AccountMetadata? { state.account }

    /// When the sender stops: the time a countdown on this device shows.
    public var expiryDate: Date { payload.expiryDate }

    /// When this receiver gives up: the expiry plus its clock-skew tolerance (Spec 6.0).
    public var effectiveExpiry: Date {
        Date(timeIntervalSince1970: Double(payload.expiry) + Double(configuration.clockSkewTolerance))
    }

    /// When the session next needs the clock: ``effectiveExpiry``, or `nil` while the app
    /// imports (that phase never expires) and after the end.
    public var nextDeadline: Date? {
        switch state {
        case .awaitingImportResult, .finished: nil
        case .awaitingReveal, .awaitingOffer, .reviewingOffer, .awaitingCredentialFrame: effectiveExpiry
        }
    }

    /// Feeds one event and returns the actions to perform, in order, with the next deadline.
    ///
    /// Frames that are malformed, unauthenticated, replayed or out of place never change the
    /// state: they come back as ``ReceiverAction/ignored(_:)``.
    ///
    /// - Throws: ``HandoffError/invalidClock`` for a `now` that is not finite;
    ///   ``HandoffError/invalidEvent(_:in:)`` when a local event does not fit the phase;
    ///   ``HandoffError/sessionFinished`` for local events after the end (`cancel`, `tick` and
    ///   `transportLost` are no-ops then). The state is unchanged when it throws. Guarded memory
    ///   comes from the session's reservation; should a step still find none, the session ends
    ///   as `failed.secureMemoryUnavailable` instead of waiting, and tells the sender with an
    ///   abort it ends `failed.peerSecureMemoryUnavailable` on (Spec 6.0 step 4).
    public func handle(_ event: ReceiverEvent, now: Date) throws(HandoffError) -> ReceiverStep {
        let actions = try memory.bind { () throws(HandoffError) in try process(event, now: now) }
        return ReceiverStep(actions: actions, nextDeadline: nextDeadline)
    }

    private func process(_ event: ReceiverEvent, now: Date) throws(HandoffError) -> [ReceiverAction] {
        try clock.advance(to: now)
        if case .finished = state {
            switch event {
            case .frameReceived: return [.ignored(.sessionFinished)]
            case .tick, .transportLost, .cancel: return []
            case .codeConfirmed, .codeRejected, .storeUnavailable, .notAuthenticated, .importFinished: throw .sessionFinished
            }
        }
        if let deadline = nextDeadline, clock.time >= deadline.timeIntervalSince1970 {
            return expire()
        }
        switch event {
        case .frameReceived(let bytes): return receive(bytes)
        case .codeConfirmed: return try accept()
        case .codeRejected: return try abort(.rejected)
        case .cancel: return try abort(.cancelled)
        case .storeUnavailable: return try abort(.storeUnavailable)
        case .notAuthenticated: return try abort(.notAuthenticated)
        case .importFinished(let status): return try sendReceipt(status)
        case .tick: return []
        case .transportLost: return transportLost()
        }
    }

    // MARK: Local events

    private func refuse(_ event: LocalEvent) -> HandoffError { .invalidEvent(event, in: .receiver(state.phase)) }

    private func accept() throws(HandoffError) -> [ReceiverAction] {
        guard case .reviewingOffer(let current) = state else { throw refuse(.codeConfirmed) }
        let frame = current.channel.seal(.accept, publicBytes: [], account: current.account.linkID)
        state = .awaitingCredentialFrame(ReceiverAwaitingCredentialFrame(previous: current))
        return [.send(frame)]
    }

    /// Ends the session with an abort this side's person or app caused (Spec 6.2): a cancel
    /// from any state before the import; a rejection or a store that cannot take the account
    /// once there is a code; a failed authentication when the person accepts the account.
    private func abort(_ reason: AbortReason) throws(HandoffError) -> [ReceiverAction] {
        let event: LocalEvent
        let end: SessionEnd
        switch reason {
        case .cancelled: (event, end) = (.cancel, .cancelled(by: .local))
        case .storeUnavailable: (event, end) = (.storeUnavailable, .storeUnavailable(by: .local))
        case .notAuthenticated: (event, end) = (.notAuthenticated, .notAuthenticated(by: .local))
        case .rejected, .contested, .expired, .secureMemoryUnavailable: (event, end) = (.codeRejected, .rejected(by: .local))
        }
        let channel: SecureChannel
        switch (state, reason) {
        case (.awaitingReveal(let current), .cancelled): channel = current.channel
        case (.awaitingOffer(let current), _) where reason != .notAuthenticated: channel = current.channel
        case (.reviewingOffer(let current), _): channel = current.channel
        case (.awaitingCredentialFrame(let current), _) where reason != .notAuthenticated: channel = current.channel
        case (.awaitingReveal, _), (.awaitingOffer, _), (.awaitingCredentialFrame, _), (.awaitingImportResult, _), (.finished, _):
            // No code yet, nothing to authenticate for, or the credential is the app's (only its
            // import result ends the session then).
            throw refuse(event)
        }
        return [.send(channel.sealAbort(reason)), finish(.ended(end))]
    }

    /// The expiry rule fired (Spec 6.0 step 3): a receiver that holds the session's keys tells
    /// the sender with `abort(expired)` before it ends.
    private func expire() -> [ReceiverAction] {
        guard let channel = state.channel else { return [finish(.ended(.expired))] }
        return [.send(channel.sealAbort(.expired)), finish(.ended(.expired))]
    }

    private func sendReceipt(_ status: ReceiptStatus) throws(HandoffError) -> [ReceiverAction] {
        guard case .awaitingImportResult(let current) = state else { throw refuse(.importFinished) }
        let frame = current.channel.seal(.receipt, publicBytes: [status.rawValue], account: current.account.linkID,
                                         endsSession: true)
        return [.send(frame), finish(.completed(status))]
    }

    private func transportLost() -> [ReceiverAction] {
        // The sender stops at the expiry and closes its connection; its abort(expired) can be
        // lost (before the reveal it holds no keys to send one). Once the expiry has passed, a
        // closed connection is that stop, and the person is told the code ran out (Spec 6.2).
        guard case .awaitingImportResult(var current) = state else {
            return [finish(.ended(clock.time >= Double(payload.expiry) ? .expired : .failed(.transportLost)))]
        }
        current.transportLost = true
        state = .awaitingImportResult(current)
        return []
    }

    // MARK: Frames

    private func receive(_ bytes: [UInt8]) -> [ReceiverAction] {
        let frame: Frame
        do { frame = try SecureChannel.decode(bytes, for: payload.transferID) } catch { return [.ignored(error)] }
        let phase = SessionPhase.receiver(state.phase)
        guard frame.type != .hello else { return [.ignored(.unexpectedMessage(.hello, in: phase))] }
        let expectation: SecureChannel.Expectation
        let channel: SecureChannel
        switch state {
        case .awaitingReveal(let current): (expectation, channel) = (.type(.reveal), current.channel)
        case .awaitingOffer(let current): (expectation, channel) = (.type(.offer), current.channel)
        case .reviewingOffer(let current): (expectation, channel) = (.abortOnly, current.channel)
        case .awaitingCredentialFrame(let current): (expectation, channel) = (.type(.credential), current.channel)
        case .awaitingImportResult(let current): (expectation, channel) = (.nothing, current.channel)
        case .finished: return [.ignored(.sessionFinished)]
        }
        let plaintext: SecretBytes
        do {
            plaintext = try channel.open(frame, received: bytes, expecting: expectation, in: phase,
                                         account: state.account?.linkID)
        } catch .secureMemoryUnavailable(let failure) {
            // The frame authenticated (an unauthenticated one fails as such first): the session
            // cannot go on (Spec 6.0 step 4).
            return endForWantOfMemory(failure)
        } catch {
            return [.ignored(error)]
        }
        defer { plaintext.wipe() }
        return handleAuthenticated(frame.type, plaintext)
    }

    private func handleAuthenticated(_ type: MessageType, _ plaintext: SecretBytes) -> [ReceiverAction] {
        switch (type, state) {
        case (.abort, _):
            return [finish(.ended(AbortReason.endingOfPeerAbort(plaintext)))]
        case (.reveal, .awaitingReveal(let current)):
            return reveal(plaintext, current)
        case (.offer, .awaitingOffer(let current)):
            do {
                let account = try AccountMetadataCodec.decode(plaintext.withUnsafeBytes { Array($0) })
                state = .reviewingOffer(ReceiverReviewingOffer(previous: current, account: account))
                return [.showAccount(account)]
            } catch {
                return [finish(.ended(.failed(error)))]
            }
        case (.credential, .awaitingCredentialFrame(let current)):
            do {
                let credential = try CredentialPlaintext.unpad(plaintext)
                state = .awaitingImportResult(ReceiverAwaitingImportResult(previous: current))
                return [.deliverAccount(ImportedAccount(metadata: current.account, credential: credential))]
            } catch .secureMemoryUnavailable(let failure) {
                return endForWantOfMemory(failure)
            } catch {
                return [finish(.ended(.failed(error)))]
            }
        case (.hello, _), (.reveal, _), (.offer, _), (.accept, _), (.credential, _), (.receipt, _):
            // E3 admits only the expected type and aborts, so these pairs never authenticate.
            return [.ignored(.unexpectedMessage(type, in: .receiver(state.phase)))]
        }
    }

    /// The sender's reveal: check the commitment, derive the code (Spec 5.2).
    private func reveal(_ nonce: SecretBytes, _ current: ReceiverAwaitingReveal) -> [ReceiverAction] {
        guard Commitment.opens(payload.commitment, with: nonce) else {
            return [finish(.ended(.failed(.commitmentMismatch)))]
        }
        do {
            let code = try ShortCode.derive(codeKey: current.channel.keys.codeKey, nonce: nonce,
                                            handshakeTranscript: current.channel.handshakeTranscript)
            current.channel.keys.codeKey.wipe()
            state = .awaitingOffer(ReceiverAwaitingOffer(previous: current, shortCode: code))
            return [.showShortCode(code)]
        } catch .secureMemoryUnavailable(let failure) {
            return endForWantOfMemory(failure)
        } catch {
            return [finish(.ended(.failed(error)))]
        }
    }

    // MARK: Ending

    /// A step found no guarded memory, which the session's reservation rules out (Spec 8.5):
    /// the session ends with that failure instead of waiting for a frame it cannot handle, and
    /// tells the sender with `abort(7)`, which needs no guarded memory (Spec 6.0 step 4). Every
    /// live state that needs memory holds the keys (`awaitingImportResult` needs none).
    private func endForWantOfMemory(_ failure: SecureMemoryFailure) -> [ReceiverAction] {
        let end = ReceiverOutcome.ended(.failed(.secureMemoryUnavailable(failure)))
        guard let channel = state.channel else { return [finish(end)] }
        return [.send(channel.sealAbort(.secureMemoryUnavailable)), finish(end)]
    }

    private func finish(_ outcome: ReceiverOutcome) -> ReceiverAction {
        let owned = guardedSecrets
        owned.forEach { $0.wipe() }
        state = .finished(ReceiverFinished(outcome: outcome, shortCode: state.shortCode, account: state.account,
                                           wipedSecrets: owned))
        memory.end()
        return .finished(outcome)
    }

    /// The channel until the session ends.
    var currentChannel: SecureChannel? { state.channel }

    /// Every guarded buffer the session owns (not the delivered credential, which is the
    /// app's), for tests that prove terminal states wipe them.
    package var guardedSecrets: [SecretBytes] {
        switch state {
        case .finished(let finished): finished.wipedSecrets
        case .awaitingReveal, .awaitingOffer, .reviewingOffer, .awaitingCredentialFrame, .awaitingImportResult:
            state.channel?.secrets ?? []
        }
    }
}

extension HandoffReceiver {
    /// Test hook: a receiver in exactly the state of this one (which must still await the
    /// reveal), with its own copies of every secret; the QR is claimed in `registry` as
    /// ``scan(payload:expecting:configuration:random:now:registry:)`` claims it. Fuzzers scan
    /// once per process and copy per input instead of deriving the same keys again.
    ///
    /// - Throws: ``HandoffError/alreadyScanned``, ``HandoffError/registryUnavailable(_:)``,
    ///   ``HandoffError/secureMemoryUnavailable(_:)``; nothing is kept when it throws.
    package func copyAwaitingReveal(registry: ReceiverRegistry? = nil) throws(HandoffError) -> HandoffReceiver {
        guard case .awaitingReveal(let current) = state else { preconditionFailure("only a receiver awaiting the reveal can be copied") }
        let memory: SecureMemoryReservation
        do { memory = try GuardedAllocator.reserve(self.memory.demand) } catch { throw .secureMemoryUnavailable(error) }
        let channel: SecureChannel
        do throws(HandoffError) {
            channel = try memory.bind { () throws(HandoffError) in try current.channel.copy() }
            do { try registry?.claim(payload) } catch {
                channel.wipe()
                throw error
            }
        } catch {
            memory.end()
            throw error
        }
        return HandoffReceiver(payload: payload, memory: memory, configuration: configuration, clock: clock,
                               state: .awaitingReveal(ReceiverAwaitingReveal(channel: channel)))
    }
}

extension HandoffReceiver: CustomStringConvertible, CustomReflectable {
    /// `HandoffReceiver(transfer <id>, <phase>)`; never a secret.
    public var description: String { "HandoffReceiver(transfer \(payload.transferID), \(phase))" }
    /// Transfer ID and phase only, so `dump` and debuggers never walk into keys.
    public var customMirror: Mirror {
        Mirror(self, children: ["transferID": payload.transferID, "phase": phase], displayStyle: .class)
    }
}
