import Foundation

/// The sending side of a handoff as a sans-IO state machine (Spec 6.1).
///
/// It performs no I/O, reads no clock and draws no randomness of its own: the app feeds it
/// ``Event``s with the current time and carries out the returned ``HandoffAction``s.
///
/// ```swift
/// let sender = try HandoffSender.start(account: account, rendezvous: token,
///                                      random: SystemRandomSource(), now: Date())
/// showQR(sender.payload.text)
/// for action in try sender.handle(.frameReceived(bytes), now: Date()) { ... }
/// ```
///
/// - Warning: Authenticate the user locally before `start`, and again right before feeding
///   ``Event/credentialProvided(_:)``.
public final class HandoffSender {
    /// Inputs to the sender.
    public enum Event {
        /// Bytes of one frame arrived from the transport.
        case frameReceived([UInt8])
        /// The sending person confirmed that both devices show the same code.
        case codeConfirmed
        /// The sending person saw different codes or declined.
        case codeRejected
        /// The sending person cancelled.
        case cancel
        /// The app re-authenticated the user and hands over the password. The buffer is wiped
        /// once it is encrypted.
        case credentialProvided(SecretBytes)
        /// Time passed; only checks the expiry.
        case tick
        /// The transport closed or timed out.
        case transportLost
    }

    /// What to encode into the QR code.
    public let payload: SessionPayload
    /// How the session ended, once it has.
    public private(set) var outcome: TransferOutcome?

    let account: AccountMetadata
    let keyPair: X25519KeyPair
    let challenge: SecretBytes
    let initialTranscript: Transcript
    private let registry: SenderRegistry?
    private var phase: SessionState = .awaitingHello
    private(set) var channel: SecureChannel?
    private(set) var acceptedHello: [UInt8]?

    /// Starts a session: draws the transfer ID, challenge and ephemeral key pair, and sets the expiry.
    ///
    /// - Parameters:
    ///   - account: the account to offer once the sending person confirms the code.
    ///   - rendezvous: where the receiver should connect.
    ///   - configuration: lifetime settings.
    ///   - random: the randomness source (``SystemRandomSource`` in production).
    ///   - now: the current time.
    ///   - registry: optional record of this device's transfer IDs, refusing reuse.
    /// - Throws: ``HandoffError/invalidConfiguration`` for a clock outside the protocol's
    ///   range; ``HandoffError/transferIDInUse`` if the registry already knows the new ID.
    public static func start(account: AccountMetadata, rendezvous: RendezvousToken,
                             configuration: SenderConfiguration = .standard, random: RandomSource,
                             now: Date, registry: SenderRegistry? = nil) throws(HandoffError) -> HandoffSender {
        let seconds = now.timeIntervalSince1970.rounded(.down)
        guard seconds >= 0, seconds + Double(configuration.lifetime) <= Double(UInt32.max) else { throw .invalidConfiguration }
        let transferID = TransferID(random: random)
        let challenge = random.secret(SessionPayload.challengeByteCount)
        let keyPair = X25519KeyPair(random: random)
        let payload = SessionPayload(intent: .sendAccount, transferID: transferID,
                                     expiry: UInt32(seconds) + configuration.lifetime,
                                     challenge: challenge.withUnsafeBytes { Array($0) },
                                     senderPublicKey: keyPair.publicKey, rendezvous: rendezvous)
        if let registry {
            do { try registry.register(payload) } catch {
                keyPair.wipe()
                challenge.wipe()
                throw error
            }
        }
        return HandoffSender(payload: payload, account: account, keyPair: keyPair, challenge: challenge, registry: registry)
    }

    private init(payload: SessionPayload, account: AccountMetadata, keyPair: X25519KeyPair,
                 challenge: SecretBytes, registry: SenderRegistry?) {
        self.payload = payload
        self.account = account
        self.keyPair = keyPair
        self.challenge = challenge
        self.initialTranscript = Transcript(payload: payload)
        self.registry = registry
    }

    /// The current state.
    public var state: SessionState { phase }

    /// The short code, once a receiver's hello was accepted.
    public var shortCode: ShortCode? { channel?.keys.shortCode }

    /// Feeds one event and returns the actions to perform, in order.
    ///
    /// Frames that are malformed, unauthenticated, replayed or out of place never change the
    /// state: they come back as ``HandoffAction/ignored(_:)``.
    ///
    /// - Throws: ``HandoffError/invalidEvent(_:in:)`` when a local event does not fit the state;
    ///   ``HandoffError/sessionFinished`` for local events after the end.
    public func handle(_ event: Event, now: Date) throws(HandoffError) -> [HandoffAction] {
        if phase == .finished {
            if case .credentialProvided(let credential) = event { credential.wipe() }
            switch event {
            case .frameReceived: return [.ignored(.sessionFinished)]
            case .tick, .transportLost: return []
            default: throw .sessionFinished
            }
        }
        if now.timeIntervalSince1970 >= Double(payload.expiry) {
            if case .credentialProvided(let credential) = event { credential.wipe() }
            return [finish(.expired)]
        }
        switch event {
        case .frameReceived(let bytes): return receive(bytes)
        case .codeConfirmed: return try confirmCode()
        case .codeRejected: return try abort(.rejected)
        case .cancel: return try abort(.cancelled)
        case .credentialProvided(let credential): return try send(credential: credential)
        case .tick: return []
        case .transportLost: return [finish(.failed(.transportLost))]
        }
    }

    // MARK: Local events

    private func confirmCode() throws(HandoffError) -> [HandoffAction] {
        guard phase == .awaitingCodeConfirmation, let channel else { throw .invalidEvent(.codeConfirmed, in: phase) }
        let plaintext = SecretBytes(copying: AccountMetadataCodec.encode(account))
        defer { plaintext.wipe() }
        channel.linkID = account.linkID
        let frame = channel.seal(.offer, plaintext: plaintext)
        phase = .awaitingAccept
        return [.send(frame)]
    }

    private func abort(_ reason: AbortReason) throws(HandoffError) -> [HandoffAction] {
        let event: SessionEvent = reason == .cancelled ? .cancel : .codeRejected
        let outcome: TransferOutcome = reason == .cancelled ? .cancelled(by: .local) : .rejected(by: .local)
        switch phase {
        case .awaitingHello:
            guard reason == .cancelled else { throw .invalidEvent(event, in: phase) }
            return [finish(outcome)]
        case .awaitingCodeConfirmation, .awaitingAccept, .awaitingCredential, .awaitingReceipt:
            guard reason == .cancelled || phase != .awaitingReceipt else { throw .invalidEvent(event, in: phase) }
            let frame = channel!.seal(.abort, plaintext: SecureChannel.plaintext([reason.rawValue]))
            return [.send(frame), finish(outcome)]
        case .awaitingOffer, .reviewingOffer, .awaitingCredentialFrame, .awaitingImportResult, .finished:
            preconditionFailure("receiver state \(phase) in a sender")
        }
    }

    private func send(credential: SecretBytes) throws(HandoffError) -> [HandoffAction] {
        defer { credential.wipe() }
        guard phase == .awaitingCredential, let channel else { throw .invalidEvent(.credentialProvided, in: phase) }
        let padded = try CredentialPlaintext.pad(credential)
        defer { padded.wipe() }
        let frame = channel.seal(.credential, plaintext: padded)
        phase = .awaitingReceipt
        return [.send(frame)]
    }

    // MARK: Frames

    private func receive(_ bytes: [UInt8]) -> [HandoffAction] {
        do throws(HandoffError) {
            let frame = try SecureChannel.decode(bytes, for: payload.transferID)
            if frame.type == .hello { return receiveHello(frame, bytes: bytes) }
            guard let channel else { throw .unexpectedMessage(frame.type, in: phase) }
            let expected: MessageType? = switch phase {
            case .awaitingAccept: .accept
            case .awaitingReceipt: .receipt
            default: nil
            }
            let plaintext = try channel.open(frame, expecting: expected, in: phase)
            defer { plaintext.wipe() }
            return handleAuthenticated(frame.type, plaintext.withUnsafeBytes { Array($0) })
        } catch {
            return [.ignored(error)]
        }
    }

    private func handleAuthenticated(_ type: MessageType, _ plaintext: [UInt8]) -> [HandoffAction] {
        switch type {
        case .accept:
            phase = .awaitingCredential
            return [.requestCredential]
        case .receipt:
            guard plaintext.count == 1, let status = ReceiptStatus(rawValue: plaintext[0]) else {
                return [finish(.failed(.malformed(.receiptStatus)))]
            }
            return [finish(.completed(status))]
        case .abort:
            return [finish(AbortReason.outcome(ofPeerAbort: plaintext))]
        case .hello, .offer, .credential:
            preconditionFailure("filtered before decryption")
        }
    }

    private func receiveHello(_ frame: Frame, bytes: [UInt8]) -> [HandoffAction] {
        if let acceptedHello, ConstantTime.equal(acceptedHello, bytes) { return [.ignored(.replayed)] }
        let keys: SessionKeys
        do {
            keys = try HelloHandshake.verify(frame, privateKey: keyPair.privateKey, challenge: challenge,
                                             initial: initialTranscript)
        } catch {
            return [.ignored(error)]
        }
        if let channel {
            // A second device proved it saw the QR: end the session for everyone.
            keys.wipe()
            let abort = channel.seal(.abort, plaintext: SecureChannel.plaintext([AbortReason.contested.rawValue]))
            return [.send(abort), finish(.contested)]
        }
        var transcript = initialTranscript
        transcript.absorb(frame: bytes)
        let established = SecureChannel(role: .sender, payload: payload, keys: keys, transcript: transcript)
        channel = established
        acceptedHello = bytes
        phase = .awaitingCodeConfirmation
        return [.showShortCode(keys.shortCode)]
    }

    // MARK: Ending

    private func finish(_ result: TransferOutcome) -> HandoffAction {
        phase = .finished
        outcome = result
        wipeSecrets()
        registry?.end(payload.transferID, outcome: result)
        return .finished(result)
    }

    private func wipeSecrets() {
        keyPair.wipe()
        challenge.wipe()
        channel?.wipe()
    }

    /// Every guarded buffer the session holds, for tests that prove terminal states wipe them.
    @_spi(Testing) public var guardedSecrets: [SecretBytes] {
        [keyPair.privateKey, challenge] + (channel?.keys.secrets ?? [])
    }
}
