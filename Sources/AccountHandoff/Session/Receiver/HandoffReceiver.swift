import Foundation

/// The receiving side of a handoff as a sans-IO state machine (Spec 6.2).
///
/// Created by ``scan(payload:expecting:configuration:random:now:registry:localGate:)`` from a decoded QR;
/// the app then feeds ``ReceiverEvent``s with the current time and carries out the returned
/// ``ReceiverAction``s. Most apps use ``HandoffReceiverSession``, which does that loop.
///
/// Guarded memory (Spec 8.5): `scan` takes one arena of guarded memory sized for everything the
/// session will hold (its keys, the delivered password, and the temporaries of its busiest
/// step: the longest offer a frame can carry), or throws
/// ``HandoffError/secureMemoryUnavailable(_:)`` and gives its claim back. No later step needs
/// more memory; the arena is wiped and given back once, when the session finishes (or is
/// dropped), all but the delivered password, which is the app's.
public final class HandoffReceiver {
    /// The scanned QR payload; `nil` for a session started from a typed code
    /// (``startTyped(code:route:configuration:random:now:registry:localGate:)``).
    public let payload: SessionPayload?
    /// The session's transfer ID: the QR's, or the one the typed way's `pakeInit` names.
    @exclusivity(unchecked) public private(set) var transferID: TransferID?
    /// The sending session's expiry (Unix seconds): the QR's, or the typed way's `pakeInit`'s.
    @exclusivity(unchecked) private var expiry: UInt32?
    /// Before a typed session learns the expiry: the latest one it would accept (Spec 2.5 S3).
    private let latestExpiry: Double

    /// The longest offer plaintext a frame can carry: the largest multiple of the offer's
    /// block within a frame's body (Spec 3.2, 3.4).
    static let longestOfferPlaintext = (Frame.maximumByteCount - Frame.headerByteCount - ChaCha20Poly1305.tagByteCount)
        / AccountMetadataCodec.blockByteCount * AccountMetadataCodec.blockByteCount

    /// Guarded memory a receiver needs at most (Spec 8.5): its four keys, kept, and its largest
    /// temporary, the longest offer opened (the handshake's temporaries, and the delivered
    /// password with its opened plaintext, are smaller).
    package static let arenaByteCount = SessionKeys.derivedByteCount + longestOfferPlaintext

    /// The session's guarded memory, taken at `scan`, wiped and given back when it finishes.
    package let memory: SessionArena
    private let configuration: ReceiverConfiguration
    /// Whether this device asks its person before accepting; the accept declares it (Spec 3.6).
    private let localGate: GateDeclaration
    // The session is not Sendable and no access to its variables overlaps another: their
    // dynamic exclusivity checks are left out, as its arena's are.
    @exclusivity(unchecked) private var clock: SessionClock
    @exclusivity(unchecked) private var state: ReceiverState

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
    ///   - localGate: whether this device asks its person (local authentication) before it
    ///     accepts; the accept declares it to the sending device (`receiverGate`, Spec 3.6).
    ///     ``HandoffReceiverSession`` passes its authenticator's ``LocalAuthenticator/gateDeclaration``.
    /// - Throws: ``HandoffError/invalidClock``, ``HandoffError/wrongIntent(_:)``,
    ///   ``HandoffError/expired``, ``HandoffError/expiryTooFar``, ``HandoffError/alreadyScanned``,
    ///   ``HandoffError/registryUnavailable(_:)``, ``HandoffError/lowOrderPublicKey``,
    ///   ``HandoffError/secureMemoryUnavailable(_:)`` (the system refuses the session's guarded
    ///   memory: the memory-lock limit or the map count is reached), in the order of Spec 2.5;
    ///   the claim is given back for the last two.
    public static func scan(payload: SessionPayload, expecting intent: TransferIntent = .sendAccount,
                            configuration: ReceiverConfiguration = .standard, random: RandomSource,
                            now: Date, registry: ReceiverRegistry? = nil,
                            localGate: GateDeclaration) throws(HandoffError) -> (receiver: HandoffReceiver, step: ReceiverStep) {
        let clock = try checkTime(payload: payload, expecting: intent, configuration: configuration, now: now)
        try registry?.claim(payload)
        let memory: SessionArena
        let channel: SecureChannel
        let hello: [UInt8]
        do throws(HandoffError) {
            memory = try SessionArena(byteCount: arenaByteCount)
            do { (channel, hello) = try Self.handshake(payload, random: random, arena: memory) } catch {
                memory.end()
                throw error
            }
        } catch {
            registry?.release(payload.transferID)
            throw error
        }
        let receiver = HandoffReceiver(payload: payload, memory: memory, configuration: configuration, localGate: localGate,
                                       clock: clock, state: .awaitingReveal(ReceiverAwaitingReveal(channel: channel)))
        return (receiver, ReceiverStep(actions: [.send(hello)], nextDeadline: receiver.nextDeadline))
    }

    /// Starts a session from a typed code (Spec 6.2, typed way). The code was read and its check
    /// digit verified by ``TypedCode/init(entry:)`` (refusals there cost nothing); the app has a
    /// connection to a sending device (found by DNS-SD or paired by the relay, `route`) and
    /// feeds its frames. Nothing is sent until the sending device's `pakeInit` arrives: the
    /// session then claims the code in `registry`, runs CPace and sends its `pakeReply`.
    ///
    /// - Parameters:
    ///   - code: the typed code; the session owns it and wipes it when the run uses it up or
    ///     the session ends.
    ///   - route: how the connection reached the sending device.
    ///   - configuration: clock-skew tolerance.
    ///   - random: the randomness source (``SystemRandomSource`` in production).
    ///   - now: the current time.
    ///   - registry: the device's record of used codes; a code works once per device. With
    ///     storage, the step that handles the `pakeInit` claims the code there and so blocks:
    ///     ``HandoffReceiverSession`` takes that step on the ``BlockingIOPool``, and an app that
    ///     feeds the frames itself does so there as well.
    ///   - localGate: as for ``scan(payload:expecting:configuration:random:now:registry:localGate:)``.
    /// - Throws: ``HandoffError/invalidClock``; ``HandoffError/typedCodeAlreadyUsed`` when this
    ///   device already ran the code; ``HandoffError/secureMemoryUnavailable(_:)``. The code is
    ///   wiped when it throws.
    public static func startTyped(code: TypedCode, route: TypedRoute, configuration: ReceiverConfiguration = .standard,
                                  random: RandomSource, now: Date, registry: ReceiverRegistry? = nil,
                                  localGate: GateDeclaration) throws(HandoffError) -> HandoffReceiver {
        do throws(HandoffError) {
            let clock = try SessionClock(start: now)
            if registry?.hasClaimed(code.claimID) == true { throw .typedCodeAlreadyUsed }
            let memory = try SessionArena(byteCount: arenaByteCount)
            return HandoffReceiver(payload: nil, memory: memory, configuration: configuration, localGate: localGate, clock: clock,
                                   state: .awaitingPakeInit(ReceiverAwaitingPakeInit(code: code, route: route, random: random,
                                                                                     registry: registry)))
        } catch {
            code.wipe()
            throw error
        }
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

    /// Steps S5-S7 in the session's arena: draws the key pair, derives the keys, builds the
    /// hello; the private key and the commitment copy are temporaries, wiped before returning.
    private static func handshake(_ payload: SessionPayload, random: RandomSource,
                                  arena: SessionArena) throws(HandoffError) -> (SecureChannel, [UInt8]) {
        var transcript = Transcript(payload: payload)
        let (keys, hello) = try HelloHandshake.make(payload: payload, random: random, initial: transcript, arena: arena)
        transcript.absorb(frame: hello)
        return (SecureChannel(role: .receiver, payload: payload, keys: keys, transcript: transcript), hello)
    }

    private init(payload: SessionPayload?, memory: SessionArena, configuration: ReceiverConfiguration,
                 localGate: GateDeclaration, clock: SessionClock, state: ReceiverState) {
        self.payload = payload
        self.transferID = payload?.transferID
        self.expiry = payload?.expiry
        self.latestExpiry = (clock.time + Double(SenderConfiguration.maximumLifetime)).rounded(.down)
        self.memory = memory
        self.configuration = configuration
        self.localGate = localGate
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
    public var offeredAccount: AccountMetadata? { state.account?.metadata }

    /// When the sender stops: the time a countdown on this device shows. A typed session
    /// learns it from the `pakeInit`; before that it is the latest expiry it would accept
    /// (its start plus 600 s, Spec 2.5 S3).
    public var expiryDate: Date { Date(timeIntervalSince1970: expiry.map(Double.init) ?? latestExpiry) }

    /// When this receiver gives up: the expiry plus its clock-skew tolerance (Spec 6.0).
    public var effectiveExpiry: Date {
        Date(timeIntervalSince1970: expiryDate.timeIntervalSince1970 + Double(configuration.clockSkewTolerance))
    }

    /// When the session next needs the clock: ``effectiveExpiry``, or `nil` while the app
    /// imports (that phase never expires) and after the end.
    public var nextDeadline: Date? {
        switch state {
        case .awaitingImportResult, .finished: nil
        case .awaitingPakeInit, .awaitingPakeConfirm, .awaitingReveal, .awaitingOffer, .reviewingOffer, .awaitingCredentialFrame:
            effectiveExpiry
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
    ///   `transportLost` are no-ops then). The state is unchanged when it throws.
    public func handle(_ event: ReceiverEvent, now: Date) throws(HandoffError) -> ReceiverStep {
        let actions = try process(event, now: now)
        return ReceiverStep(actions: actions, nextDeadline: nextDeadline)
    }

    /// The steps of Spec 6.0 in their order, then the current state's row.
    private func process(_ event: ReceiverEvent, now: Date) throws(HandoffError) -> [ReceiverAction] {
        try clock.advance(to: now)
        if case .finished = state {
            switch event {
            case .frameReceived: return [.ignored(.sessionFinished)]
            case .tick, .transportLost, .cancel: return []
            case .accept, .reject, .storeUnavailable, .notAuthenticated, .importFinished: throw .sessionFinished
            }
        }
        if let deadline = nextDeadline, clock.time >= deadline.timeIntervalSince1970 {
            return apply(expire())
        }
        switch event {
        case .frameReceived(let bytes): return apply(receive(bytes))
        case .accept: return apply(try accept())
        case .reject: return apply(try reject())
        case .cancel: return apply(try cancel())
        case .storeUnavailable: return apply(try storeUnavailable())
        case .notAuthenticated: return apply(try notAuthenticated())
        case .importFinished(let status): return apply(try importFinished(status))
        case .tick: return []
        case .transportLost: return apply(transportLost())
        }
    }

    /// Moves to the transition's next state, or finishes the session, and returns its actions.
    private func apply(_ transition: consuming ReceiverTransition) -> [ReceiverAction] {
        // The transition is taken apart, so its next state moves into `state` uncopied.
        let (next, actions) = transition.parts()
        switch consume next {
        case .unchanged: break
        case .state(let next): state = next
        case .finished(let outcome): finish(outcome)
        }
        return actions
    }

    // MARK: Local events: each state's row, or a refusal (Spec 6.2)

    private func refuse(_ event: LocalEvent) -> HandoffError { .invalidEvent(event, in: .receiver(state.phase)) }

    private func accept() throws(HandoffError) -> ReceiverTransition {
        switch state {
        case .reviewingOffer(let current): current.accept(receiverGate: localGate)
        case .awaitingPakeInit, .awaitingPakeConfirm, .awaitingReveal, .awaitingOffer, .awaitingCredentialFrame,
             .awaitingImportResult, .finished:
            throw refuse(.accept)
        }
    }

    private func reject() throws(HandoffError) -> ReceiverTransition {
        switch state {
        case .awaitingOffer(let current): current.reject()
        case .reviewingOffer(let current): current.reject()
        case .awaitingCredentialFrame(let current): current.reject()
        case .awaitingPakeInit, .awaitingPakeConfirm, .awaitingReveal, .awaitingImportResult, .finished: throw refuse(.reject)
        }
    }

    private func cancel() throws(HandoffError) -> ReceiverTransition {
        switch state {
        case .awaitingPakeInit(let current): current.cancel()
        case .awaitingPakeConfirm(let current): current.cancel()
        case .awaitingReveal(let current): current.cancel()
        case .awaitingOffer(let current): current.cancel()
        case .reviewingOffer(let current): current.cancel()
        case .awaitingCredentialFrame(let current): current.cancel()
        case .awaitingImportResult, .finished: throw refuse(.cancel)
        }
    }

    private func storeUnavailable() throws(HandoffError) -> ReceiverTransition {
        switch state {
        case .awaitingOffer(let current): current.storeUnavailable()
        case .reviewingOffer(let current): current.storeUnavailable()
        case .awaitingCredentialFrame(let current): current.storeUnavailable()
        case .awaitingPakeInit, .awaitingPakeConfirm, .awaitingReveal, .awaitingImportResult, .finished:
            throw refuse(.storeUnavailable)
        }
    }

    private func notAuthenticated() throws(HandoffError) -> ReceiverTransition {
        switch state {
        case .reviewingOffer(let current): current.notAuthenticated()
        case .awaitingPakeInit, .awaitingPakeConfirm, .awaitingReveal, .awaitingOffer, .awaitingCredentialFrame,
             .awaitingImportResult, .finished:
            throw refuse(.notAuthenticated)
        }
    }

    private func importFinished(_ status: ReceiptStatus) throws(HandoffError) -> ReceiverTransition {
        switch state {
        case .awaitingImportResult(let current): current.importFinished(status)
        case .awaitingPakeInit, .awaitingPakeConfirm, .awaitingReveal, .awaitingOffer, .reviewingOffer,
             .awaitingCredentialFrame, .finished:
            throw refuse(.importFinished)
        }
    }

    private func transportLost() -> ReceiverTransition {
        let afterExpiry = clock.time >= expiryDate.timeIntervalSince1970
        return switch state {
        case .awaitingPakeInit(let current): current.transportLost()
        case .awaitingPakeConfirm(let current): current.transportLost()
        case .awaitingReveal(let current): current.transportLost(afterExpiry: afterExpiry)
        case .awaitingOffer(let current): current.transportLost(afterExpiry: afterExpiry)
        case .reviewingOffer(let current): current.transportLost(afterExpiry: afterExpiry)
        case .awaitingCredentialFrame(let current): current.transportLost(afterExpiry: afterExpiry)
        case .awaitingImportResult(let current): current.transportLost()
        case .finished: .nothing  // Spec 6.0 step 2 answers a finished session before any row
        }
    }

    /// The expiry rule fired (Spec 6.0 step 3).
    private func expire() -> ReceiverTransition {
        switch state {
        case .awaitingPakeInit(let current): current.expire()
        case .awaitingPakeConfirm(let current): current.expire()
        case .awaitingReveal(let current): current.expire()
        case .awaitingOffer(let current): current.expire()
        case .reviewingOffer(let current): current.expire()
        case .awaitingCredentialFrame(let current): current.expire()
        case .awaitingImportResult, .finished: .nothing  // neither has a deadline
        }
    }

    // MARK: Frames: decoding and authentication, then the state's row (Spec 6.0, 6.2)

    private func receive(_ bytes: [UInt8]) -> ReceiverTransition {
        let frame: Frame
        do {
            // Before the typed way's pakeInit the session has no transfer ID: the pakeInit names it.
            frame = if let transferID { try SecureChannel.decode(bytes, for: transferID) } else { try Frame(bytes: bytes) }
        } catch { return .ignore(error) }
        guard frame.type != .hello else { return .ignore(.unexpectedMessage(.hello, in: .receiver(state.phase))) }
        switch state {
        case .awaitingPakeInit(let current):
            guard frame.type == .pakeInit else { return .ignore(.unexpectedMessage(frame.type, in: .receiver(.awaitingPakeInit))) }
            let (transition, transferID, expiry) = current.receivePakeInit(frame, bytes: bytes, now: clock.time,
                                                                           skew: configuration.clockSkewTolerance, arena: memory)
            if let transferID, let expiry {
                self.transferID = transferID
                self.expiry = expiry
            }
            return transition
        case .awaitingPakeConfirm(let current):
            return current.receive(frame, bytes: bytes, arena: memory)
        case .awaitingReveal(let current):
            guard let payload else { preconditionFailure("a QR session has its payload") }
            return open(frame, bytes, on: current.channel, expecting: ReceiverAwaitingReveal.expectation, account: nil) {
                current.receive($0, opened: $1, commitment: payload.commitmentBytes, arena: memory)
            }
        case .awaitingOffer(let current):
            return open(frame, bytes, on: current.channel, expecting: ReceiverAwaitingOffer.expectation, account: nil) {
                current.receive($0, opened: $1)
            }
        case .reviewingOffer(let current):
            return open(frame, bytes, on: current.channel, expecting: ReceiverReviewingOffer.expectation,
                        account: current.account.metadata.linkID) { current.receive($0, opened: $1) }
        case .awaitingCredentialFrame(let current):
            return open(frame, bytes, on: current.channel, expecting: ReceiverAwaitingCredentialFrame.expectation,
                        account: current.account.metadata.linkID) { current.receive($0, opened: $1, arena: memory) }
        case .awaitingImportResult(let current):
            return open(frame, bytes, on: current.channel, expecting: ReceiverAwaitingImportResult.expectation,
                        account: current.account.metadata.linkID) { current.receive($0, opened: $1) }
        case .finished:
            return .ignore(.sessionFinished)
        }
    }

    /// Steps E1-E4 (Spec 5.3) on the session's channel, then `row` with the plaintext, a
    /// temporary of the session's arena wiped after it.
    private func open(_ frame: Frame, _ bytes: [UInt8], on channel: SecureChannel,
                      expecting expectation: SecureChannel.Expectation, account: AccountLinkID?,
                      then row: (MessageType, UnsafeRawBufferPointer) -> ReceiverTransition) -> ReceiverTransition {
        do {
            return try channel.open(frame, received: bytes, expecting: expectation, in: .receiver(state.phase), account: account,
                                    arena: memory, row)
        } catch {
            return .ignore(error)
        }
    }

    // MARK: Ending

    /// Wipes every secret the session owns and gives its memory back (Spec 6.5, 8.5), all but
    /// the delivered password, which is the app's; the transition's actions already end with
    /// `finished(outcome)`.
    private func finish(_ outcome: ReceiverOutcome) {
        if case .awaitingPakeInit(let current) = state { current.code.wipe() }
        state = .finished(ReceiverFinished(outcome: outcome, shortCode: state.shortCode, account: state.account))
        memory.end()
    }

    /// The channel until the session ends.
    package var currentChannel: SecureChannel? { state.channel }

    /// Every secret the session keeps in its arena (not the delivered password, which is the
    /// app's), for tests and leak scanners (read with ``SessionSecret/isWiped`` first: a wiped
    /// one traps).
    package var keptSecrets: [SessionSecret] { state.channel?.keys.secrets ?? [] }
}

extension HandoffReceiver {
    /// Test hook: a receiver in exactly the state of this one (which must still await the
    /// reveal), with its own copies of every secret; the QR is claimed in `registry` as
    /// ``scan(payload:expecting:configuration:random:now:registry:localGate:)`` claims it. Fuzzers scan
    /// once per process and copy per input instead of deriving the same keys again.
    ///
    /// - Throws: ``HandoffError/alreadyScanned``, ``HandoffError/registryUnavailable(_:)``,
    ///   ``HandoffError/secureMemoryUnavailable(_:)``; nothing is kept when it throws.
    package func copyAwaitingReveal(registry: ReceiverRegistry? = nil) throws(HandoffError) -> HandoffReceiver {
        guard case .awaitingReveal(let current) = state, let payload else {
            preconditionFailure("only a receiver awaiting the reveal can be copied")
        }
        let memory = try SessionArena(byteCount: Self.arenaByteCount)
        let channel = current.channel.copy(in: memory)
        do { try registry?.claim(payload) } catch {
            memory.end()
            throw error
        }
        return HandoffReceiver(payload: payload, memory: memory, configuration: configuration, localGate: localGate, clock: clock,
                               state: .awaitingReveal(ReceiverAwaitingReveal(channel: channel)))
    }
}

extension HandoffReceiver: CustomStringConvertible, CustomReflectable {
    /// `HandoffReceiver(transfer <id>, <phase>)`; never a secret.
    public var description: String { "HandoffReceiver(transfer \(transferID.map(\.description) ?? "not yet known"), \(phase))" }
    /// Transfer ID and phase only, so `dump` and debuggers never walk into keys.
    public var customMirror: Mirror {
        Mirror(self, children: ["transferID": transferID.map(\.description) ?? "not yet known", "phase": phase], displayStyle: .class)
    }
}
