import Foundation

/// The receiving side of a handoff as a sans-IO state machine (Spec 6.2).
///
/// Created by ``scan(payload:expecting:configuration:random:now:registry:)`` from a decoded QR;
/// the app then feeds ``Event``s with the current time and carries out the returned actions.
public final class HandoffReceiver {
    /// Inputs to the receiver.
    public enum Event {
        /// Bytes of one frame arrived from the transport.
        case frameReceived([UInt8])
        /// The receiving person confirmed the code and the offered account.
        case codeConfirmed
        /// The receiving person saw different codes or declined the account.
        case codeRejected
        /// The receiving person cancelled.
        case cancel
        /// The app stored (or refused) the delivered account; sends the receipt.
        case importFinished(ReceiptStatus)
        /// Time passed; only checks the expiry.
        case tick
        /// The transport closed or timed out.
        case transportLost
    }

    /// The scanned QR payload.
    public let payload: SessionPayload
    /// How the session ended, once it has.
    public private(set) var outcome: TransferOutcome?
    /// The offered account, once the offer arrived.
    public private(set) var offeredAccount: AccountMetadata?

    private let configuration: ReceiverConfiguration
    let keyPair: X25519KeyPair
    let channel: SecureChannel
    private var phase: SessionState = .awaitingOffer
    private(set) var credential: SecretBytes?

    /// Starts a session from a scanned QR: checks intent and expiry, derives the keys and
    /// returns the hello to send and the short code to show.
    ///
    /// - Parameters:
    ///   - payload: the decoded QR.
    ///   - intent: what the receiving person asked to do; must match the QR.
    ///   - configuration: clock skew tolerance.
    ///   - random: the randomness source (``SystemRandomSource`` in production).
    ///   - now: the current time.
    ///   - registry: optional record of scanned transfer IDs; a QR works once per device.
    /// - Throws: ``HandoffError/wrongIntent(_:)``, ``HandoffError/expired``,
    ///   ``HandoffError/expiryTooFar``, ``HandoffError/alreadyScanned``,
    ///   ``HandoffError/lowOrderPublicKey``.
    public static func scan(payload: SessionPayload, expecting intent: TransferIntent = .sendAccount,
                            configuration: ReceiverConfiguration = .standard, random: RandomSource,
                            now: Date, registry: ReceiverRegistry? = nil) throws(HandoffError) -> (receiver: HandoffReceiver, actions: [HandoffAction]) {
        guard payload.intent == intent else { throw .wrongIntent(payload.intent.rawValue) }
        let seconds = now.timeIntervalSince1970
        let skew = Double(configuration.clockSkewTolerance)
        guard seconds <= Double(payload.expiry) + skew else { throw .expired }
        guard Double(payload.expiry) <= seconds + Double(SenderConfiguration.maximumLifetime) + skew else { throw .expiryTooFar }
        try registry?.claim(payload)

        let keyPair = X25519KeyPair(random: random)
        let challenge = SecretBytes(copying: payload.challenge)
        defer { challenge.wipe() }
        var transcript = Transcript(payload: payload)
        let hello: (keys: SessionKeys, frame: [UInt8])
        do {
            hello = try HelloHandshake.make(payload: payload, keyPair: keyPair, challenge: challenge, initial: transcript)
        } catch {
            keyPair.wipe()
            registry?.release(payload)
            throw error
        }
        transcript.absorb(frame: hello.frame)
        let channel = SecureChannel(role: .receiver, payload: payload, keys: hello.keys, transcript: transcript)
        let receiver = HandoffReceiver(payload: payload, configuration: configuration, keyPair: keyPair, channel: channel)
        return (receiver, [.send(hello.frame), .showShortCode(hello.keys.shortCode)])
    }

    private init(payload: SessionPayload, configuration: ReceiverConfiguration, keyPair: X25519KeyPair, channel: SecureChannel) {
        self.payload = payload
        self.configuration = configuration
        self.keyPair = keyPair
        self.channel = channel
    }

    /// The current state.
    public var state: SessionState { phase }

    /// The short code this side shows.
    public var shortCode: ShortCode { channel.keys.shortCode }

    /// Feeds one event and returns the actions to perform, in order.
    ///
    /// Frames that are malformed, unauthenticated, replayed or out of place never change the
    /// state: they come back as ``HandoffAction/ignored(_:)``.
    ///
    /// - Throws: ``HandoffError/invalidEvent(_:in:)`` when a local event does not fit the state;
    ///   ``HandoffError/sessionFinished`` for local events after the end.
    public func handle(_ event: Event, now: Date) throws(HandoffError) -> [HandoffAction] {
        if phase == .finished {
            switch event {
            case .frameReceived: return [.ignored(.sessionFinished)]
            case .tick, .transportLost: return []
            default: throw .sessionFinished
            }
        }
        if now.timeIntervalSince1970 > Double(payload.expiry) + Double(configuration.clockSkewTolerance) {
            return [finish(.expired)]
        }
        switch event {
        case .frameReceived(let bytes): return receive(bytes)
        case .codeConfirmed: return try accept()
        case .codeRejected: return try abort(.rejected)
        case .cancel: return try abort(.cancelled)
        case .importFinished(let status): return try sendReceipt(status)
        case .tick: return []
        case .transportLost: return [finish(.failed(.transportLost))]
        }
    }

    // MARK: Local events

    private func accept() throws(HandoffError) -> [HandoffAction] {
        guard phase == .reviewingOffer else { throw .invalidEvent(.codeConfirmed, in: phase) }
        let frame = channel.seal(.accept, plaintext: SecureChannel.plaintext([]))
        phase = .awaitingCredentialFrame
        return [.send(frame)]
    }

    private func abort(_ reason: AbortReason) throws(HandoffError) -> [HandoffAction] {
        if reason == .rejected, phase == .awaitingImportResult {
            throw .invalidEvent(.codeRejected, in: phase)
        }
        let frame = channel.seal(.abort, plaintext: SecureChannel.plaintext([reason.rawValue]))
        return [.send(frame), finish(reason == .cancelled ? .cancelled(by: .local) : .rejected(by: .local))]
    }

    private func sendReceipt(_ status: ReceiptStatus) throws(HandoffError) -> [HandoffAction] {
        guard phase == .awaitingImportResult else { throw .invalidEvent(.importFinished, in: phase) }
        let frame = channel.seal(.receipt, plaintext: SecureChannel.plaintext([status.rawValue]))
        return [.send(frame), finish(.completed(status))]
    }

    // MARK: Frames

    private func receive(_ bytes: [UInt8]) -> [HandoffAction] {
        do throws(HandoffError) {
            let frame = try SecureChannel.decode(bytes, for: payload.transferID)
            guard frame.type != .hello else { throw .unexpectedMessage(.hello, in: phase) }
            let expected: MessageType? = switch phase {
            case .awaitingOffer: .offer
            case .awaitingCredentialFrame: .credential
            default: nil
            }
            let plaintext = try channel.open(frame, expecting: expected, in: phase)
            defer { plaintext.wipe() }
            return handleAuthenticated(frame.type, plaintext)
        } catch {
            return [.ignored(error)]
        }
    }

    private func handleAuthenticated(_ type: MessageType, _ plaintext: SecretBytes) -> [HandoffAction] {
        switch type {
        case .offer:
            do {
                let account = try AccountMetadataCodec.decode(plaintext.withUnsafeBytes { Array($0) })
                offeredAccount = account
                channel.linkID = account.linkID
                phase = .reviewingOffer
                return [.showAccount(account)]
            } catch {
                return [finish(.failed(error))]
            }
        case .credential:
            do {
                let secret = try CredentialPlaintext.unpad(plaintext)
                credential = secret
                phase = .awaitingImportResult
                return [.deliverAccount(ImportedAccount(metadata: offeredAccount!, credential: secret))]
            } catch {
                return [finish(.failed(error))]
            }
        case .abort:
            return [finish(AbortReason.outcome(ofPeerAbort: plaintext.withUnsafeBytes { Array($0) }))]
        case .hello, .accept, .receipt:
            preconditionFailure("filtered before decryption")
        }
    }

    // MARK: Ending

    private func finish(_ result: TransferOutcome) -> HandoffAction {
        phase = .finished
        outcome = result
        keyPair.wipe()
        channel.wipe()
        credential?.wipe()
        return .finished(result)
    }

    /// Every guarded buffer the session holds, for tests that prove terminal states wipe them.
    @_spi(Testing) public var guardedSecrets: [SecretBytes] {
        [keyPair.privateKey] + channel.keys.secrets + (credential.map { [$0] } ?? [])
    }
}
