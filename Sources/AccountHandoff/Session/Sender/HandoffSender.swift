import Foundation

/// The sending side of a handoff as a sans-IO state machine (Spec 6.1).
///
/// It performs no I/O, reads no clock and draws no randomness of its own: the app feeds it
/// ``SenderEvent``s with the current time and carries out the returned ``SenderAction``s.
/// Most apps use ``HandoffSenderSession``, which does that loop over a frame channel.
///
/// ```swift
/// let sender = try HandoffSender.start(account: account, rendezvous: token,
///                                      random: SystemRandomSource(), now: Date(),
///                                      localGate: gate.gateDeclaration)
/// showQR(sender.payload.text)
/// let step = try sender.handle(.frameReceived(bytes), now: Date())
/// for action in step.actions { perform(action) }
/// scheduleTimer(at: step.nextDeadline)
/// ```
///
/// Guarded memory (Spec 8.5): `start` takes one arena of guarded memory sized for everything
/// the session will hold (its private key, the nonce, the commitment copy, the accepted
/// receiver's keys, and the temporaries of its busiest step: the padded password), or throws
/// ``HandoffError/secureMemoryUnavailable(_:)`` before anything exists. No later step needs
/// more memory, so none can fail for want of it; the arena is wiped and given back once, when
/// the session finishes (or is dropped).
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
    /// Wrong typed codes after which the typed way is withdrawn for this session (Spec 6.1);
    /// each wrong one retires its code at once.
    public static let maximumWrongTypedGuesses = 3
    /// Typed runs that may wait for their `pakeReply` at once (Spec 6.1).
    public static let maximumPendingTypedRuns = 8
    /// Seconds a typed run may wait for its `pakeReply` before it is dropped (Spec 6.1, 11.6).
    public static let typedRunDeadlineSeconds: UInt32 = 10
    /// Names taken in a row on the local network after which the typed way is withdrawn.
    public static let maximumTypedNamesTaken = 8

    /// What to encode into the QR code.
    public var payload: SessionPayload { context.payload }

    /// Guarded memory a sender needs at most (Spec 8.5): what it keeps (the nonce, its private
    /// key, the commitment copy, the accepted receiver's four keys, a copy of the password,
    /// ``credential(copying:)``) and its largest temporary, the padded password it seals (the
    /// short code's and a hello's temporaries are smaller).
    package static let arenaByteCount = Commitment.nonceByteCount + X25519PublicKey.byteCount + SessionPayload.commitmentByteCount
        + SessionKeys.derivedByteCount + maximumCredentialByteCount + CredentialPlaintext.paddedByteCount

    /// Guarded memory of a sender that offers the typed way: it also keeps the keys of each
    /// wrong guess (at most ``maximumWrongTypedGuesses``, wiped at once) until the session ends;
    /// the keys of the run that pairs take the place of the QR way's.
    package static let typedArenaByteCount = arenaByteCount + maximumWrongTypedGuesses * SessionKeys.derivedByteCount

    private let context: SenderContext
    /// The session's guarded memory, taken at `start`, wiped and given back when it finishes.
    package let memory: SessionArena
    private let registry: SenderRegistry?
    // The session is not Sendable and no access to these overlaps another: their dynamic
    // exclusivity checks are left out, as its arena's are.
    /// Whether ``credential(copying:)`` handed out the password copy its arena has room for.
    @exclusivity(unchecked) private var credentialCopyTaken = false
    @exclusivity(unchecked) private var clock: SessionClock
    @exclusivity(unchecked) private var state: SenderState
    /// The random source of the typed way's codes, `sid`s and scalars; `nil` without a typed way.
    private let random: RandomSource?

    /// Starts a session (Spec 6.1): takes the guarded memory the whole session needs
    /// (Spec 8.5), draws the nonce and the ephemeral key pair, and sets the expiry.
    ///
    /// - Parameters:
    ///   - account: the account to offer once the sending person confirms the code.
    ///   - rendezvous: where the receiver should connect.
    ///   - configuration: lifetime settings.
    ///   - random: the randomness source (``SystemRandomSource`` in production).
    ///   - now: the current time.
    ///   - registry: the device's record of transfer IDs, refusing reuse (keep one per app).
    ///   - typedRoutes: the routes of the typed way the app offers (Spec 6.1): with any, the
    ///     session draws a typed code after the QR's values (``typedCode``), shown beside the QR;
    ///     empty for the QR way alone.
    ///   - typedWrongGuesses: the wrong guesses the sending session counted under its earlier
    ///     QRs (a renewed QR, Spec 6.8): the count goes on from there, so a sending session
    ///     allows ``maximumWrongTypedGuesses`` in all; 0 for a session's first QR.
    ///   - localGate: whether this device asks its person (local authentication) before the
    ///     password is read; the offer declares it to the receiving device (`senderGate`,
    ///     Spec 3.4). ``HandoffSenderSession`` passes its authenticator's
    ///     ``LocalAuthenticator/gateDeclaration``.
    /// - Throws: ``HandoffError/invalidClock`` for a time that is not finite or outside the
    ///   protocol's range; ``HandoffError/transferIDInUse`` if the registry already knows the
    ///   transfer; ``HandoffError/registryUnavailable(_:)``;
    ///   ``HandoffError/secureMemoryUnavailable(_:)`` when the system refuses the session's
    ///   guarded memory (the memory-lock limit or the map count is reached): nothing is pending
    ///   then, and finishing or cancelling other sessions makes room.
    public static func start(account: AccountMetadata, rendezvous: RendezvousToken,
                             configuration: SenderConfiguration = .standard, random: RandomSource,
                             now: Date, registry: SenderRegistry? = nil,
                             typedRoutes: Set<TypedRoute> = [], typedWrongGuesses: Int = 0,
                             localGate: GateDeclaration) throws(HandoffError) -> HandoffSender {
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite, seconds >= 0,
              seconds.rounded(.down) + Double(configuration.lifetime) <= Double(UInt32.max) else { throw .invalidClock }
        let memory = try SessionArena(byteCount: typedRoutes.isEmpty ? arenaByteCount : typedArenaByteCount)
        let nonce = random.secret(Commitment.nonceByteCount, in: memory)
        let commitment = nonce.withUnsafeBytes { Commitment.digest(of: $0) }
        let keyPair = X25519KeyPair(random: random, in: memory)
        let commitmentCopy = commitment.withUnsafeBytes { memory.keep(copying: $0) }
        let payload = SessionPayload(intent: .sendAccount, expiry: UInt32(seconds.rounded(.down)) + configuration.lifetime,
                                     commitment: commitment, senderPublicKey: keyPair.publicKey, rendezvous: rendezvous)
        let context = SenderContext(payload: payload, account: account, senderGate: localGate,
                                    initialTranscript: Transcript(payload: payload),
                                    keyPair: keyPair, commitment: commitmentCopy)
        let typed: SenderTypedWay?
        do throws(HandoffError) {
            typed = typedRoutes.isEmpty ? nil : SenderTypedWay(code: try TypedCode.draw(from: random), routes: typedRoutes,
                                                                       wrongGuesses: typedWrongGuesses)
        } catch {
            memory.end()
            throw error
        }
        do { try registry?.register(payload) } catch {
            var typed = typed
            typed?.wipe()
            memory.end()
            throw error
        }
        return HandoffSender(context: context, memory: memory, registry: registry, clock: try SessionClock(start: now),
                             state: .awaitingHello(SenderAwaitingHello(nonce: nonce, typed: typed)),
                             random: typedRoutes.isEmpty ? nil : random)
    }

    private init(context: SenderContext, memory: SessionArena, registry: SenderRegistry?, clock: SessionClock,
                 state: SenderState, random: RandomSource? = nil) {
        self.context = context
        self.memory = memory
        self.registry = registry
        self.clock = clock
        self.state = state
        self.random = random
    }

    /// The typed code to show beside the QR (Spec 12.4 `grouped`), while the typed way is open:
    /// from `start` until a code is typed right, the QR pairs, or the typed way is withdrawn.
    /// A retired code is replaced here at once (``SenderAction/typedCodeRetired(newCode:wrongGuesses:)``).
    public var typedCode: TypedCode? {
        guard case .awaitingHello(let current) = state else { return nil }
        return current.typed?.code
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
    package var shortCode: ShortCode? { state.shortCode }

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
    ///   size. The state is unchanged when it throws.
    public func handle(_ event: SenderEvent, now: Date) throws(HandoffError) -> SenderStep {
        let actions: [SenderAction]
        do {
            actions = try process(event, now: now)
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
            case .typedRunRequested: throw refuse(.typedRunRequested)
            case .typedRunEnded, .typedNameTaken: return []
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
        case .typedRunRequested(let route): return try startTypedRun(route)
        case .typedRunEnded(let run): return endTypedRun(run)
        case .typedNameTaken: return typedNameTaken()
        }
    }

    /// Moves to the transition's next state, or finishes the session, and returns its actions.
    private func apply(_ transition: consuming SenderTransition) -> [SenderAction] {
        // The transition is taken apart, so its next state moves into `state` uncopied.
        let (next, actions) = transition.parts()
        switch consume next {
        case .unchanged: break
        case .state(let next): state = next
        case .finished(let outcome): finish(outcome)
        }
        return actions
    }

    // MARK: Local events: each state's row, or a refusal (Spec 6.1)

    private func refuse(_ event: LocalEvent) -> HandoffError { .invalidEvent(event, in: .sender(state.phase)) }

    private func enter(_ typed: String) throws(HandoffError) -> SenderTransition {
        switch state {
        case .awaitingCodeConfirmation(let current): try current.codeEntered(typed, offering: context.account, senderGate: context.senderGate)
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
        case .awaitingCredential(let current): try current.credentialProvided(credential, account: context.account.linkID, arena: memory)
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

    // MARK: Frames: decoding and authentication, then the state's row (Spec 6.0, 6.1)

    private func receive(_ bytes: [UInt8]) -> SenderTransition {
        let frame: Frame
        do { frame = try SecureChannel.decode(bytes, for: payload.transferID) } catch { return .ignore(error) }
        if frame.type == .hello { return receiveHello(frame, bytes: bytes) }
        switch state {
        case .awaitingHello(let current):
            guard frame.type == .pakeReply, current.typed != nil else {
                return .ignore(.unexpectedMessage(frame.type, in: .sender(.awaitingHello)))
            }
            return receivePakeReply(frame, bytes: bytes)
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
    /// plaintext, a temporary of the session's arena wiped after it.
    private func open(_ frame: Frame, _ bytes: [UInt8], on established: SenderEstablished,
                      expecting expectation: SecureChannel.Expectation, endsSession: Bool = false,
                      then row: (MessageType, UnsafeRawBufferPointer) -> SenderTransition) -> SenderTransition {
        do {
            return try established.channel.open(frame, received: bytes, expecting: expectation, in: .sender(state.phase),
                                                 account: context.account.linkID, endsSession: endsSession, arena: memory, row)
        } catch {
            return .ignore(error)
        }
    }

    private func receiveHello(_ frame: Frame, bytes: [UInt8]) -> SenderTransition {
        switch state {
        case .awaitingHello(let current):
            let transition = verifyHello(frame, bytes) { current.receiveHello($0, bytes: bytes, payload: payload, arena: memory) }
            guard case .state = transition.next, var typed = current.typed else { return transition }
            // The QR way paired: the typed way is withdrawn (Spec 6.1).
            typed.wipe()
            return SenderTransition(next: transition.next, actions: transition.actions + [.typedWayWithdrawn(.pairedByQR)])
        case .awaitingCodeConfirmation(let current):
            if current.isReplay(ofHello: bytes) { return .ignore(.replayed) }
            return verifyHello(frame, bytes) { current.receiveSecondHello($0, payload: payload) }
        case .awaitingAccept(let current):
            if current.isReplay(ofHello: bytes) { return .ignore(.replayed) }
            return verifyHello(frame, bytes) { current.receiveSecondHello($0, payload: payload) }
        case .awaitingCredential(let current):
            if current.isReplay(ofHello: bytes) { return .ignore(.replayed) }
            return verifyHello(frame, bytes) { current.receiveSecondHello($0, payload: payload) }
        case .awaitingReceipt(let current):
            if current.isReplay(ofHello: bytes) { return .ignore(.replayed) }
            return verifyHello(frame, bytes) { current.receiveSecondHello($0, bytes: bytes, payload: payload) }
        case .finished:
            return .ignore(.sessionFinished)
        }
    }

    /// Steps H2-H4 (Spec 5.1) with the QR's secrets, then `row` with what the hello
    /// establishes (its keys a temporary of the session's arena).
    private func verifyHello(_ frame: Frame, _ bytes: [UInt8],
                             then row: (VerifiedHello) -> SenderTransition) -> SenderTransition {
        do {
            return try HelloHandshake.verify(frame, bytes: bytes, privateKey: context.keyPair.privateKey,
                                             commitment: context.commitment, initial: context.initialTranscript,
                                             arena: memory, row)
        } catch {
            return .ignore(error)
        }
    }

    // MARK: Ending

    /// Wipes every secret the session owns and gives its memory back (Spec 6.5, 8.5), and
    /// records the outcome; the transition's actions already end with `finished(outcome)`.
    private func finish(_ outcome: SenderOutcome) {
        if case .awaitingHello(var current) = state { current.typed?.wipe() }
        state = .finished(SenderFinished(outcome: outcome, shortCode: shortCode))
        memory.end()
        registry?.end(payload.transferID, outcome: outcome)
    }

    /// The channel, once a hello was accepted and until the session ends.
    package var currentChannel: SecureChannel? { state.channel }

    /// Every secret the session keeps in its arena, for tests and leak scanners (read with
    /// ``SessionSecret/isWiped`` first: a wiped one traps).
    package var keptSecrets: [SessionSecret] {
        var secrets = [context.keyPair.privateKey, context.commitment]
        switch state {
        case .awaitingHello(let current): secrets.append(current.nonce)
        case .awaitingCodeConfirmation, .awaitingAccept, .awaitingCredential, .awaitingReceipt:
            secrets += state.channel?.keys.secrets ?? []
        case .finished: break
        }
        return secrets
    }
}

extension HandoffSender {
    /// Copies a password into guarded memory for ``SenderEvent/credentialProvided(_:)``,
    /// checking its length first. The first copy lies in the session's own arena, which has
    /// room for it (Spec 8.5), so it cannot be refused however many other sessions are
    /// pending; any further copy, or one after the end, gets guarded pages of its own.
    ///
    /// - Parameter password: the password's bytes (UTF-8 for text), 1 to
    ///   ``maximumCredentialByteCount`` of them.
    /// - Returns: a new guarded buffer; feeding it to the session wipes it.
    /// - Throws: `malformed.credential` for an empty or longer password;
    ///   ``HandoffError/secureMemoryUnavailable(_:)`` when a further copy finds no guarded memory.
    /// - Warning: The caller still owns `password` and should wipe it.
    public func credential(copying password: UnsafeRawBufferPointer) throws(HandoffError) -> SecretBytes {
        guard CredentialPlaintext.isValidLength(password.count) else { throw .malformed(.credential) }
        guard !credentialCopyTaken, !memory.hasEnded else { return try SecretBytes(copying: password) }
        credentialCopyTaken = true
        return memory.handOver(memory.keep(copying: password))
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
        let memory = try SessionArena(byteCount: Self.arenaByteCount)
        func copy(_ secret: SessionSecret) -> SessionSecret { secret.withUnsafeBytes { memory.keep(copying: $0) } }
        let copiedContext = SenderContext(payload: context.payload, account: context.account, senderGate: context.senderGate,
                                          initialTranscript: context.initialTranscript,
                                          keyPair: X25519KeyPair(copying: context.keyPair, in: memory),
                                          commitment: copy(context.commitment))
        let nonce = copy(current.nonce)
        do { try registry?.register(payload) } catch {
            memory.end()
            throw error
        }
        return HandoffSender(context: copiedContext, memory: memory, registry: registry, clock: clock,
                             state: .awaitingHello(SenderAwaitingHello(nonce: nonce)))
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

// MARK: The typed way (Spec 6.1)

extension HandoffSender {
    /// `typedRunRequested(route)`: starts a run for a connection that waits for its `pakeInit`.
    fileprivate func startTypedRun(_ route: TypedRoute) throws(HandoffError) -> [SenderAction] {
        guard case .awaitingHello(var current) = state, var typed = current.typed, typed.routes.contains(route),
              let random else {
            throw .invalidEvent(.typedRunRequested, in: .sender(state.phase))
        }
        typed.dropStaleRuns(now: clock.time)
        defer {
            current.typed = typed
            state = .awaitingHello(current)
        }
        guard typed.runs.count < Self.maximumPendingTypedRuns else { throw .typedRunsBusy }
        let sid = random.bytes(TypedFrames.sessionIDByteCount)
        let ci = TypedChannelIdentifier.encode(nameplate: typed.code.nameplate, expiry: payload.expiry, route: route,
                                               transferID: payload.transferID)
        let password = try typed.code.password()
        defer { password.wipe() }
        let run = try CPaceRun(role: .initiator, password: password, channelIdentifier: ci, sessionID: sid, random: random)
        let pakeInit = TypedFrames.pakeInit(transferID: payload.transferID, expiry: payload.expiry, sessionID: sid, share: run.ownShare)
        let id = TypedRunID(sid)
        typed.add(SenderTypedWay.PendingRun(id: id, route: route, run: run, pakeInit: pakeInit, startedAt: clock.time))
        return [.startTypedRun(id, pakeInit: pakeInit)]
    }

    /// `typedRunEnded(run)`: its connection closed; no guess is counted.
    fileprivate func endTypedRun(_ id: TypedRunID) -> [SenderAction] {
        guard case .awaitingHello(var current) = state, var typed = current.typed else { return [] }
        typed.endRun(id)
        current.typed = typed
        state = .awaitingHello(current)
        return []
    }

    /// `typedNameTaken`: a new code, no guess counted; withdrawn after too many in a row.
    fileprivate func typedNameTaken() -> [SenderAction] {
        guard case .awaitingHello(var current) = state, var typed = current.typed, let random else { return [] }
        defer { state = .awaitingHello(current) }
        guard typed.countNameTaken() <= Self.maximumTypedNamesTaken, let next = try? TypedCode.draw(from: random) else {
            typed.wipe()
            current.typed = nil
            return [.typedWayWithdrawn(.namesTaken)]
        }
        typed.replaceCode(with: next)
        current.typed = typed
        return [.typedCodeReplaced(next)]
    }

    /// A `pakeReply` in `awaitingHello` with the typed way open (Spec 6.1, 4.5).
    fileprivate func receivePakeReply(_ frame: Frame, bytes: [UInt8]) -> SenderTransition {
        guard case .awaitingHello(var current) = state, var typed = current.typed else { return .ignore(.sessionFinished) }
        typed.dropStaleRuns(now: clock.time)
        current.typed = typed
        state = .awaitingHello(current)
        guard frame.sequence == TypedFrames.handshakeSequence else { return .ignore(.malformed(.sequence)) }
        let reply = TypedFrames.readPakeReply(frame)
        guard let pending = typed.run(sessionID: reply.sessionID) else { return .ignore(.unknownTransfer) }
        let isk: SecretBytes
        do { isk = try pending.run.intermediateSessionKey(peerShare: reply.share) } catch { return .ignore(error) }
        defer { isk.wipe() }
        let start = Transcript(pakeInit: pending.pakeInit)
        let handshakeHash = reply.share.bytes.withUnsafeBytes { start.handshakeHash(receiverPublicKey: $0) }
        let keys = isk.withUnsafeBytes { TypedKeySchedule.keys(intermediateSessionKey: $0, handshakeHash: handshakeHash, arena: memory) }
        guard TypedKeySchedule.tagMatches(reply.tag, key: keys.receiverConfirmKey, over: handshakeHash, arena: memory) else {
            keys.wipe()
            return wrongGuess(current: current, typed: typed)
        }
        keys.receiverConfirmKey.wipe()
        var transcript = start
        transcript.absorb(frame: bytes)
        let channel = SecureChannel(typedRole: .sender, transferID: payload.transferID, expiry: payload.expiry, keys: keys,
                                    transcript: transcript)
        let confirm = memory.withScratch(byteCount: TypedFrames.tagByteCount) { tag in
            TypedKeySchedule.writeTag(key: keys.senderConfirmKey, over: transcript.digest, into: tag)
            return TypedFrames.pakeConfirm(transferID: payload.transferID, tag: UnsafeRawBufferPointer(tag))
        }
        keys.senderConfirmKey.wipe()
        channel.absorbConfirmation(confirm)
        typed.wipe()
        current.nonce.wipe()  // the QR way is withdrawn: its nonce is never revealed
        let (account, senderGate) = (context.account, context.senderGate)
        let offer = channel.seal(.offer, publicByteCount: AccountMetadataCodec.encodedByteCount(account)) {
            AccountMetadataCodec.encode(account, senderGate: senderGate, into: $0)
        }
        let established = SenderEstablished(channel: channel, acceptedHello: [], shortCode: nil)
        return .next(.awaitingAccept(SenderAwaitingAccept(typedWay: established)),
                     [.pairedByTypedCode(pending.id), .send(confirm), .send(offer)])
    }

    /// A valid share with a wrong `tagR` (Spec 6.1): the code is retired at once; the third
    /// withdraws the typed way. `pakeRefused` goes back to the guesser.
    private func wrongGuess(current: SenderAwaitingHello, typed: SenderTypedWay) -> SenderTransition {
        var current = current, typed = typed
        let refused = TypedFrames.pakeRefused(transferID: payload.transferID)
        let guesses = typed.countWrongGuess()
        guard guesses < Self.maximumWrongTypedGuesses, let random, let next = try? TypedCode.draw(from: random) else {
            typed.wipe()
            current.typed = nil
            return .next(.awaitingHello(current), [.reply(refused), .typedWayWithdrawn(.wrongGuesses)])
        }
        typed.replaceCode(with: next)
        current.typed = typed
        return .next(.awaitingHello(current), [.reply(refused), .typedCodeRetired(newCode: next, wrongGuesses: guesses)])
    }
}
