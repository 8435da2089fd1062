import Foundation

/// The sending side of a handoff as a sans-IO state machine (Spec 6.1).
///
/// It performs no I/O, reads no clock and draws no randomness of its own: the app feeds it
/// ``SenderEvent``s with the current time and carries out the returned ``SenderAction``s.
/// Most apps use ``HandoffSenderSession``, which does that loop over a frame channel.
///
/// ```swift
/// let sender = try HandoffSender.start(account: account, rendezvous: token,
///                                      random: SystemRandomSource(), now: Date())
/// showQR(sender.payload.text)
/// let step = try sender.handle(.frameReceived(bytes), now: Date())
/// for action in step.actions { perform(action) }
/// scheduleTimer(at: step.nextDeadline)
/// ```
///
/// Admission (Spec 8.5): `start` reserves, in the guarded memory pool, every secret the
/// session can hold at once until it ends (the key schedule, the short code, a second device's
/// hello, the password and its padded plaintext, the reference transport's keys), or throws
/// ``HandoffError/secureMemoryUnavailable(_:)`` and nothing is pending. Every later step draws
/// from that reservation, so a session that starts can finish however many others are
/// pending; the reservation goes back to the pool when the session ends.
///
/// - Warning: Authenticate the user locally before `start`, and again right before feeding
///   ``SenderEvent/credentialProvided(_:)``.
public final class HandoffSender {
    /// The longest password a transfer can carry, in bytes (Spec 3.5). Check it before `start`
    /// so that an over-long password is refused before anyone confirms anything.
    public static let maximumCredentialByteCount = CredentialPlaintext.maximumCredentialByteCount
    /// Seconds after the expiry that the sender keeps waiting for a receipt once the
    /// credential has left (Spec 6.1).
    public static let receiptWaitSeconds: UInt32 = 120
    /// How many six-digit codes the sending person may type before a mismatch ends the
    /// session as rejected (Spec 4.4). Both codes are fixed before the first entry, so a
    /// second or third entry compares the same two values again: it forgives a typing slip
    /// and gives a man in the middle nothing (Spec 8.2).
    public static let maximumCodeEntries = 3

    /// What to encode into the QR code.
    public var payload: SessionPayload { context.payload }

    private let context: SenderContext
    /// The guarded memory set aside for this session at `start`, bound while it runs a step
    /// and handed back when it finishes.
    package let memory: SecureMemoryReservation
    private let registry: SenderRegistry?
    private var clock: SessionClock
    private var state: SenderState

    /// Starts a session (Spec 6.1): reserves the guarded memory the whole session needs
    /// (Spec 8.5), draws the nonce and the ephemeral key pair, and sets the expiry.
    ///
    /// - Parameters:
    ///   - account: the account to offer once the sending person confirms the code.
    ///   - rendezvous: where the receiver should connect.
    ///   - configuration: lifetime settings.
    ///   - random: the randomness source (``SystemRandomSource`` in production).
    ///   - now: the current time.
    ///   - registry: the device's record of transfer IDs, refusing reuse (keep one per app).
    /// - Throws: ``HandoffError/invalidClock`` for a time that is not finite or outside the
    ///   protocol's range; ``HandoffError/transferIDInUse`` if the registry already knows the
    ///   transfer; ``HandoffError/registryUnavailable(_:)``;
    ///   ``HandoffError/secureMemoryUnavailable(_:)`` when the pool cannot set aside what the
    ///   session needs (the memory-lock limit, the map count or the pool's cap is reached):
    ///   nothing is pending then, and finishing or cancelling other sessions makes room.
    public static func start(account: AccountMetadata, rendezvous: RendezvousToken,
                             configuration: SenderConfiguration = .standard, random: RandomSource,
                             now: Date, registry: SenderRegistry? = nil) throws(HandoffError) -> HandoffSender {
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite, seconds >= 0,
              seconds.rounded(.down) + Double(configuration.lifetime) <= Double(UInt32.max) else { throw .invalidClock }
        let memory: SecureMemoryReservation
        do { memory = try GuardedAllocator.reserve(SessionMemory.sender) } catch { throw .secureMemoryUnavailable(error) }
        do throws(HandoffError) {
            return try memory.bind { () throws(HandoffError) in
                try begin(account: account, rendezvous: rendezvous, configuration: configuration, random: random,
                          now: now, registry: registry, memory: memory)
            }
        } catch {
            memory.end()  // nothing is pending: the slots go back at once
            throw error
        }
    }

    /// Steps 3 and 4 of `start`, drawing from `memory`.
    private static func begin(account: AccountMetadata, rendezvous: RendezvousToken, configuration: SenderConfiguration,
                              random: RandomSource, now: Date, registry: SenderRegistry?,
                              memory: SecureMemoryReservation) throws(HandoffError) -> HandoffSender {
        let seconds = now.timeIntervalSince1970
        let nonce = try random.secret(Commitment.nonceByteCount)
        let commitment = Commitment.digest(of: nonce)
        let keyPair: X25519KeyPair
        let commitmentCopy: SecretBytes
        do throws(HandoffError) {
            keyPair = try X25519KeyPair(random: random)
            do {
                commitmentCopy = try commitment.withUnsafeBytes { (bytes) throws(HandoffError) in try SecretBytes(copying: bytes) }
            } catch {
                keyPair.wipe()
                throw error
            }
        } catch {
            nonce.wipe()
            throw error
        }
        let payload = SessionPayload(intent: .sendAccount, expiry: UInt32(seconds.rounded(.down)) + configuration.lifetime,
                                     commitment: commitment, senderPublicKey: keyPair.publicKey, rendezvous: rendezvous)
        let context = SenderContext(payload: payload, account: account, initialTranscript: Transcript(payload: payload),
                                    keyPair: keyPair, commitment: commitmentCopy)
        do { try registry?.register(payload) } catch {
            context.wipe()
            nonce.wipe()
            throw error
        }
        return HandoffSender(context: context, memory: memory, registry: registry, clock: try SessionClock(start: now),
                             state: .awaitingHello(SenderAwaitingHello(nonce: nonce)))
    }

    private init(context: SenderContext, memory: SecureMemoryReservation, registry: SenderRegistry?, clock: SessionClock,
                 state: SenderState) {
        self.context = context
        self.memory = memory
        self.registry = registry
        self.clock = clock
        self.state = state
    }

    /// The current phase.
    public var phase: SenderPhase { state.phase }

    /// How the session ended, once it has.
    public var outcome: SenderOutcome? {
        guard case .finished(let finished) = state else { return nil }
        return finished.outcome
    }

    /// The short code, once a receiver's hello was accepted (it stays available after the end).
    /// Never show it before the person typed it: the sending person types the code the
    /// receiving device shows (Spec 4.4); test and vector hook.
    package var shortCode: ShortCode? {
        if case .finished(let finished) = state { return finished.shortCode }
        return state.established?.shortCode
    }

    /// When the QR expires (the sender is the authority on expiry).
    public var expiryDate: Date { payload.expiryDate }

    /// When the session next needs the clock: the expiry, `expiry + 120 s` while waiting for a
    /// receipt, or `nil` once it ended.
    public var nextDeadline: Date? {
        switch state {
        case .finished: nil
        case .awaitingReceipt: Date(timeIntervalSince1970: Double(payload.expiry) + Double(Self.receiptWaitSeconds))
        case .awaitingHello, .awaitingCodeConfirmation, .awaitingAccept, .awaitingCredential: payload.expiryDate
        }
    }

    /// Feeds one event and returns the actions to perform, in order, with the next deadline.
    ///
    /// Frames that are malformed, unauthenticated, replayed or out of place never change the
    /// state: they come back as ``SenderAction/ignored(_:)``.
    ///
    /// - Throws: ``HandoffError/invalidClock`` for a `now` that is not finite;
    ///   ``HandoffError/invalidEvent(_:in:)`` when a local event does not fit the phase;
    ///   ``HandoffError/sessionFinished`` for local events after the end (`cancel`, `tick` and
    ///   `transportLost` are no-ops then); `malformed.credential` for a password of the wrong
    ///   size. The state is unchanged when it throws. Guarded memory comes from the session's
    ///   reservation; should a step still find none, the session ends as
    ///   `failed.secureMemoryUnavailable` instead of waiting, and tells the receiver with an
    ///   abort it ends `failed.peerSecureMemoryUnavailable` on, unless no receiver's session
    ///   exists yet or the password already left (Spec 6.0 step 4).
    public func handle(_ event: SenderEvent, now: Date) throws(HandoffError) -> SenderStep {
        let actions: [SenderAction]
        do {
            actions = try memory.bind { () throws(HandoffError) in try process(event, now: now) }
        } catch {
            event.wipeCredential()
            throw error
        }
        return SenderStep(actions: actions, nextDeadline: nextDeadline)
    }

    /// The steps of Spec 6.0 in their order, then the current state's row.
    private func process(_ event: SenderEvent, now: Date) throws(HandoffError) -> [SenderAction] {
        try clock.advance(to: now)
        if case .finished = state {
            switch event {
            case .frameReceived: return [.ignored(.sessionFinished)]
            case .tick, .transportLost, .cancel: return []
            case .codeEntered, .reject, .notAuthenticated, .storeUnavailable, .credentialProvided: throw .sessionFinished
            }
        }
        if let deadline = nextDeadline, clock.time >= deadline.timeIntervalSince1970 {
            event.wipeCredential()
            return apply(expire())
        }
        switch event {
        case .frameReceived(let bytes): return apply(receive(bytes))
        case .codeEntered(let typed): return apply(try enter(typed))
        case .reject: return apply(try reject())
        case .notAuthenticated: return apply(try notAuthenticated())
        case .storeUnavailable: return apply(try storeUnavailable())
        case .cancel: return apply(try cancel())
        case .credentialProvided(let credential):
            defer { credential.wipe() }
            return apply(try send(credential))
        case .tick: return []
        case .transportLost: return apply(transportLost())
        }
    }

    /// Moves to the transition's next state, or finishes the session, and returns its actions.
    private func apply(_ transition: SenderTransition) -> [SenderAction] {
        switch transition.next {
        case .unchanged: break
        case .state(let next): state = next
        case .finished(let outcome): finish(outcome)
        }
        return transition.actions
    }

    // MARK: Local events: each state's row, or a refusal (Spec 6.1)

    private func refuse(_ event: LocalEvent) -> HandoffError { .invalidEvent(event, in: .sender(state.phase)) }

    private func enter(_ typed: String) throws(HandoffError) -> SenderTransition {
        switch state {
        case .awaitingCodeConfirmation(let current): try current.codeEntered(typed, offering: context.account)
        case .awaitingHello, .awaitingAccept, .awaitingCredential, .awaitingReceipt, .finished: throw refuse(.codeEntered)
        }
    }

    private func reject() throws(HandoffError) -> SenderTransition {
        switch state {
        case .awaitingCodeConfirmation(let current): current.reject()
        case .awaitingAccept(let current): current.reject()
        case .awaitingCredential(let current): current.reject()
        case .awaitingHello, .awaitingReceipt, .finished: throw refuse(.reject)
        }
    }

    private func notAuthenticated() throws(HandoffError) -> SenderTransition {
        switch state {
        case .awaitingCredential(let current): current.notAuthenticated()
        case .awaitingHello, .awaitingCodeConfirmation, .awaitingAccept, .awaitingReceipt, .finished:
            throw refuse(.notAuthenticated)
        }
    }

    private func storeUnavailable() throws(HandoffError) -> SenderTransition {
        switch state {
        case .awaitingCredential(let current): current.storeUnavailable()
        case .awaitingHello, .awaitingCodeConfirmation, .awaitingAccept, .awaitingReceipt, .finished:
            throw refuse(.storeUnavailable)
        }
    }

    private func cancel() throws(HandoffError) -> SenderTransition {
        switch state {
        case .awaitingHello(let current): current.cancel()
        case .awaitingCodeConfirmation(let current): current.cancel()
        case .awaitingAccept(let current): current.cancel()
        case .awaitingCredential(let current): current.cancel()
        case .awaitingReceipt(let current): current.cancel()
        case .finished: .nothing  // Spec 6.0 step 2 answers a finished session before any row
        }
    }

    private func send(_ credential: SecretBytes) throws(HandoffError) -> SenderTransition {
        switch state {
        case .awaitingCredential(let current): try current.credentialProvided(credential, account: context.account.linkID)
        case .awaitingHello, .awaitingCodeConfirmation, .awaitingAccept, .awaitingReceipt, .finished:
            throw refuse(.credentialProvided)
        }
    }

    private func transportLost() -> SenderTransition {
        switch state {
        case .awaitingHello(let current): current.transportLost()
        case .awaitingCodeConfirmation(let current): current.transportLost()
        case .awaitingAccept(let current): current.transportLost()
        case .awaitingCredential(let current): current.transportLost()
        case .awaitingReceipt(let current): current.transportLost()
        case .finished: .nothing  // Spec 6.0 step 2 answers a finished session before any row
        }
    }

    /// The expiry rule fired (Spec 6.0 step 3).
    private func expire() -> SenderTransition {
        switch state {
        case .awaitingHello(let current): current.expire()
        case .awaitingCodeConfirmation(let current): current.expire()
        case .awaitingAccept(let current): current.expire()
        case .awaitingCredential(let current): current.expire()
        case .awaitingReceipt(let current): current.expire()
        case .finished: .nothing  // a finished session has no deadline
        }
    }

    /// A step found no guarded memory, which the session's reservation rules out (Spec 8.5):
    /// the session ends with that failure instead of waiting for a frame it cannot handle
    /// (Spec 6.0 step 4); each state says whether it tells the receiver.
    private func endForWantOfMemory(_ failure: SecureMemoryFailure) -> SenderTransition {
        switch state {
        case .awaitingHello(let current): current.endForWantOfMemory(failure)
        case .awaitingCodeConfirmation(let current): current.endForWantOfMemory(failure)
        case .awaitingAccept(let current): current.endForWantOfMemory(failure)
        case .awaitingCredential(let current): current.endForWantOfMemory(failure)
        case .awaitingReceipt(let current): current.endForWantOfMemory(failure)
        case .finished: .nothing  // a finished session runs no step
        }
    }

    // MARK: Frames: decoding and authentication, then the state's row (Spec 6.0, 6.1)

    private func receive(_ bytes: [UInt8]) -> SenderTransition {
        let frame: Frame
        do { frame = try SecureChannel.decode(bytes, for: payload.transferID) } catch { return .ignore(error) }
        if frame.type == .hello { return receiveHello(frame, bytes: bytes) }
        switch state {
        case .awaitingHello:
            return .ignore(.unexpectedMessage(frame.type, in: .sender(.awaitingHello)))
        case .awaitingCodeConfirmation(let current):
            return open(frame, bytes, on: current.established, expecting: SenderAwaitingCodeConfirmation.expectation) {
                current.receive($0, opened: $1)
            }
        case .awaitingAccept(let current):
            return open(frame, bytes, on: current.established, expecting: SenderAwaitingAccept.expectation) {
                current.receive($0, opened: $1)
            }
        case .awaitingCredential(let current):
            return open(frame, bytes, on: current.established, expecting: SenderAwaitingCredential.expectation) {
                current.receive($0, opened: $1)
            }
        case .awaitingReceipt(let current):
            // Whatever authenticates here (the receipt or an abort) ends the session.
            return open(frame, bytes, on: current.established, expecting: SenderAwaitingReceipt.expectation,
                        endsSession: true) { current.receive($0, opened: $1) }
        case .finished:
            return .ignore(.sessionFinished)
        }
    }

    /// Steps E1-E4 (Spec 5.3) on the accepted receiver's channel, then `row` with the
    /// plaintext, which is wiped after it.
    private func open(_ frame: Frame, _ bytes: [UInt8], on established: SenderEstablished,
                      expecting expectation: SecureChannel.Expectation, endsSession: Bool = false,
                      then row: (MessageType, SecretBytes) -> SenderTransition) -> SenderTransition {
        let plaintext: SecretBytes
        do {
            plaintext = try established.channel.open(frame, received: bytes, expecting: expectation,
                                                     in: .sender(state.phase), account: context.account.linkID,
                                                     endsSession: endsSession)
        } catch {
            guard let failure = error.secureMemoryFailure else { return .ignore(error) }
            // The frame authenticated (an unauthenticated one fails as such first).
            return endForWantOfMemory(failure)
        }
        defer { plaintext.wipe() }
        return row(frame.type, plaintext)
    }

    private func receiveHello(_ frame: Frame, bytes: [UInt8]) -> SenderTransition {
        switch state {
        case .awaitingHello(let current):
            return verifyHello(frame, bytes) { current.receiveHello(on: $0, bytes: bytes) }
        case .awaitingCodeConfirmation(let current):
            if current.isReplay(ofHello: bytes) { return .ignore(.replayed) }
            return verifyHello(frame, bytes) { current.receiveSecondHello(on: $0) }
        case .awaitingAccept(let current):
            if current.isReplay(ofHello: bytes) { return .ignore(.replayed) }
            return verifyHello(frame, bytes) { current.receiveSecondHello(on: $0) }
        case .awaitingCredential(let current):
            if current.isReplay(ofHello: bytes) { return .ignore(.replayed) }
            return verifyHello(frame, bytes) { current.receiveSecondHello(on: $0) }
        case .awaitingReceipt(let current):
            if current.isReplay(ofHello: bytes) { return .ignore(.replayed) }
            return verifyHello(frame, bytes) { current.receiveSecondHello(on: $0, bytes: bytes) }
        case .finished:
            return .ignore(.sessionFinished)
        }
    }

    /// Steps H1-H4 (Spec 5.1) with the QR's secrets, then `row` with a channel on the keys of
    /// the hello's sender.
    private func verifyHello(_ frame: Frame, _ bytes: [UInt8],
                             then row: (SecureChannel) -> SenderTransition) -> SenderTransition {
        let keys: SessionKeys
        do {
            keys = try HelloHandshake.verify(frame, privateKey: context.keyPair.privateKey, commitment: context.commitment,
                                             initial: context.initialTranscript)
        } catch {
            guard let failure = error.secureMemoryFailure else { return .ignore(error) }
            // H3 needs this memory to check any hello at all: the session cannot go on.
            return endForWantOfMemory(failure)
        }
        var transcript = context.initialTranscript
        transcript.absorb(frame: bytes)
        return row(SecureChannel(role: .sender, payload: payload, keys: keys, transcript: transcript))
    }

    // MARK: Ending

    /// The driver could not copy the password into guarded memory for
    /// ``SenderEvent/credentialProvided(_:)`` (Spec 6.7): the session ends as a step that finds
    /// no guarded memory (Spec 6.0 step 4, `abort(7)`), after the clock and expiry steps.
    ///
    /// - Throws: ``HandoffError/invalidClock``; ``HandoffError/invalidEvent(_:in:)`` outside
    ///   `awaitingCredential` (as for `credentialProvided`); ``HandoffError/sessionFinished``.
    func endForWantOfMemory(_ failure: SecureMemoryFailure, now: Date) throws(HandoffError) -> SenderStep {
        let actions = try memory.bind { () throws(HandoffError) -> [SenderAction] in
            try clock.advance(to: now)
            if case .finished = state { throw .sessionFinished }
            if let deadline = nextDeadline, clock.time >= deadline.timeIntervalSince1970 { return apply(expire()) }
            guard case .awaitingCredential(let current) = state else { throw refuse(.credentialProvided) }
            return apply(current.endForWantOfMemory(failure))
        }
        return SenderStep(actions: actions, nextDeadline: nextDeadline)
    }

    /// Wipes every secret the session owns, hands its memory back and records the outcome
    /// (Spec 6.5); the transition's actions already end with `finished(outcome)`.
    private func finish(_ outcome: SenderOutcome) {
        let code = shortCode
        let (nonce, channel) = ownedBesideContext
        context.wipe()
        nonce?.wipe()
        channel?.wipe()
        state = .finished(SenderFinished(outcome: outcome, shortCode: code, wipedNonce: nonce, wipedChannel: channel))
        memory.end()
        registry?.end(payload.transferID, outcome: outcome)
    }

    /// The channel, once a hello was accepted and until the session ends.
    var currentChannel: SecureChannel? { state.established?.channel }

    /// Every guarded buffer the session owns, for tests that prove terminal states wipe them.
    package var guardedSecrets: [SecretBytes] {
        let (nonce, channel) = ownedBesideContext
        if let nonce { return context.secrets(with: nonce) }
        return context.secrets(with: channel?.keys)
    }

    /// What the session owns besides the context's secrets: the nonce until a hello is
    /// accepted, then that receiver's channel (wiped, once the session ended).
    private var ownedBesideContext: (nonce: SecretBytes?, channel: SecureChannel?) {
        switch state {
        case .awaitingHello(let current): (current.nonce, nil)
        case .awaitingCodeConfirmation, .awaitingAccept, .awaitingCredential, .awaitingReceipt: (nil, state.established?.channel)
        case .finished(let finished): (finished.wipedNonce, finished.wipedChannel)
        }
    }
}

extension HandoffSender {
    /// Copies a password into guarded memory from this session's reservation, for
    /// ``SenderEvent/credentialProvided(_:)``: the session set a buffer of
    /// ``maximumCredentialByteCount`` bytes aside for it at `start`, so reading the password
    /// cannot be refused for want of locked memory however many other sessions are pending
    /// (Spec 8.5). A buffer made with ``SecretBytes/init(copying:)-(UnsafeRawBufferPointer)``
    /// works too, but comes from the pool's shared slots.
    ///
    /// - Parameter password: the password's bytes (UTF-8 for text), 1 to
    ///   ``maximumCredentialByteCount`` of them.
    /// - Returns: a new guarded buffer; feeding it to the session wipes it.
    /// - Throws: `malformed.credential` for an empty or longer password;
    ///   ``HandoffError/secureMemoryUnavailable(_:)`` only when the reservation's buffer is in
    ///   use (a second copy) and the pool has no slot left either.
    /// - Warning: The caller still owns `password` and should wipe it.
    public func credential(copying password: UnsafeRawBufferPointer) throws(HandoffError) -> SecretBytes {
        guard password.count > 0, password.count <= Self.maximumCredentialByteCount else { throw .malformed(.credential) }
        return try memory.bind { () throws(HandoffError) in try SecretBytes(copying: password) }
    }
}

extension HandoffSender {
    /// Test hook: a sender in exactly the state of this one (which must still await its hello),
    /// with its own copies of every secret, registered in `registry` as ``start(account:rendezvous:configuration:random:now:registry:)``
    /// registers a new sender. Fuzzers start one sender per process and a copy per input
    /// instead of drawing and deriving the same keys again.
    ///
    /// - Throws: ``HandoffError/transferIDInUse``, ``HandoffError/registryUnavailable(_:)``,
    ///   ``HandoffError/secureMemoryUnavailable(_:)``; nothing is kept when it throws.
    package func copyAwaitingHello(registry: SenderRegistry? = nil) throws(HandoffError) -> HandoffSender {
        guard case .awaitingHello(let current) = state else { preconditionFailure("only a sender awaiting its hello can be copied") }
        let memory: SecureMemoryReservation
        do { memory = try GuardedAllocator.reserve(self.memory.demand) } catch { throw .secureMemoryUnavailable(error) }
        do throws(HandoffError) {
            return try memory.bind { () throws(HandoffError) in try copy(current, memory: memory, registry: registry) }
        } catch {
            memory.end()
            throw error
        }
    }

    private func copy(_ current: SenderAwaitingHello, memory: SecureMemoryReservation,
                      registry: SenderRegistry?) throws(HandoffError) -> HandoffSender {
        var copies: [SecretBytes] = []
        do throws(HandoffError) {
            let keyPair = try X25519KeyPair(copying: context.keyPair)
            copies.append(keyPair.privateKey)
            for secret in [context.commitment, current.nonce] {
                copies.append(try secret.copy())
            }
            let copiedContext = SenderContext(payload: context.payload, account: context.account,
                                              initialTranscript: context.initialTranscript, keyPair: keyPair, commitment: copies[1])
            try registry?.register(payload)
            return HandoffSender(context: copiedContext, memory: memory, registry: registry, clock: clock,
                                 state: .awaitingHello(SenderAwaitingHello(nonce: copies[2])))
        } catch {
            copies.forEach { $0.wipe() }
            throw error
        }
    }
}

extension HandoffSender: CustomStringConvertible, CustomReflectable {
    /// `HandoffSender(transfer <id>, <phase>)`; never a secret.
    public var description: String { "HandoffSender(transfer \(payload.transferID), \(phase))" }
    /// Transfer ID and phase only, so `dump` and debuggers never walk into keys.
    public var customMirror: Mirror {
        Mirror(self, children: ["transferID": payload.transferID, "phase": phase], displayStyle: .class)
    }
}
