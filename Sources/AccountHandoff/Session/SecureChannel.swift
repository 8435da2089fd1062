/// The encrypted channel both roles share once a hello is accepted (Spec 4.3 and 5.3):
/// per-direction keys, per-direction sequence numbers that double as AEAD nonces, and the
/// transcript that every non-abort frame is bound to and chained into.
package final class SecureChannel {
    /// Which end of the channel this is; selects the send and receive keys.
    enum Role { case sender, receiver }

    /// Which frames a phase accepts (Spec 5.3 step E3).
    enum Expectation {
        /// This type, or an abort.
        case type(MessageType)
        /// Only an abort.
        case abortOnly
        /// No frame at all.
        case nothing
    }

    let role: Role
    let transferID: TransferID
    let expiry: UInt32
    let keys: SessionKeys
    /// `TH1`, the transcript right after the hello; aborts are bound to it because an abort may
    /// cross another frame in flight, after which the two transcripts differ. It is also the
    /// salt of the short code (Spec 4.4).
    let handshakeTranscript: [UInt8]
    private(set) var transcript: Transcript
    private var nextSendSequence: UInt32
    private var nextReceiveSequence: UInt32

    /// Creates the channel after the hello frame has been absorbed into `transcript`.
    init(role: Role, payload: SessionPayload, keys: SessionKeys, transcript: Transcript) {
        self.role = role
        self.transferID = payload.transferID
        self.expiry = payload.expiry
        self.keys = keys
        self.handshakeTranscript = transcript.hash
        self.transcript = transcript
        // The hello used sequence 0 of the receiver-to-sender direction.
        self.nextSendSequence = role == .receiver ? 1 : 0
        self.nextReceiveSequence = role == .sender ? 1 : 0
    }

    private init(copying other: SecureChannel, keys: SessionKeys) {
        role = other.role
        transferID = other.transferID
        expiry = other.expiry
        self.keys = keys
        handshakeTranscript = other.handshakeTranscript
        transcript = other.transcript
        nextSendSequence = other.nextSendSequence
        nextReceiveSequence = other.nextReceiveSequence
    }

    /// A channel in exactly this channel's state (keys, transcript, sequence numbers) with its
    /// own copies of the keys, so either can be used and wiped without touching the other.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    func copy() throws(HandoffError) -> SecureChannel {
        SecureChannel(copying: self, keys: try SessionKeys(copying: keys))
    }

    private var sendKey: SecretBytes { role == .sender ? keys.senderToReceiver : keys.receiverToSender }
    private var receiveKey: SecretBytes { role == .sender ? keys.receiverToSender : keys.senderToReceiver }

    /// The 96-bit AEAD nonce: eight zero bytes, then the sequence number big-endian.
    static func nonce(sequence: UInt32) -> [UInt8] {
        [0, 0, 0, 0, 0, 0, 0, 0, UInt8(truncatingIfNeeded: sequence >> 24), UInt8(truncatingIfNeeded: sequence >> 16),
         UInt8(truncatingIfNeeded: sequence >> 8), UInt8(truncatingIfNeeded: sequence)]
    }

    /// Whether the AD of `type` binds the account link ID (accept, credential, receipt).
    package static func bindsAccount(_ type: MessageType) -> Bool {
        switch type {
        case .accept, .credential, .receipt: true
        case .hello, .reveal, .offer, .abort: false
        }
    }

    /// `header | expiry(4) | transcript hash | linkID (accept, credential, receipt only)` for
    /// a frame of `type` with these 24 header bytes, where the hash is `TH1` for aborts and the
    /// current transcript hash otherwise.
    private func additionalData(header: ArraySlice<UInt8>, type: MessageType, account: AccountLinkID?) -> [UInt8] {
        var writer = ByteWriter(capacity: Frame.headerByteCount + 4 + SHA256.byteCount + AccountLinkID.byteCount)
        writer.write(header)
        writer.write(expiry)
        writer.write(type == .abort ? handshakeTranscript : transcript.hash)
        if Self.bindsAccount(type), let account { writer.write(account.bytes) }
        return writer.bytes
    }

    /// Encrypts `plaintext` into the next frame of `type`, chains it into the transcript
    /// (unless it is an abort) and returns its wire bytes. `account` is the link ID both
    /// people confirmed, bound into accept, credential and receipt frames.
    ///
    /// - Parameter endsSession: the session finishes as soon as this frame is sent, so the
    ///   transcript hash that would absorb it is never read; it is not computed (the receipt's
    ///   `TH6`, Spec 4.1).
    func seal(_ type: MessageType, plaintext: SecretBytes, account: AccountLinkID? = nil,
              endsSession: Bool = false) -> [UInt8] {
        seal(type, plaintextCount: plaintext.count, account: account, endsSession: endsSession) { header, nonce, data in
            ChaCha20Poly1305.seal(key: sendKey, nonce: nonce, plaintext: plaintext, additionalData: data, prefixedWith: header)
        }
    }

    /// Seals a plaintext that is no secret, straight from its bytes: an abort reason, a receipt
    /// status, the empty accept, the offer's account metadata (Spec 3.4, 3.6). It needs no
    /// guarded memory, so it cannot fail, and an abort can always be sent.
    func seal(_ type: MessageType, publicBytes bytes: [UInt8], account: AccountLinkID? = nil,
              endsSession: Bool = false) -> [UInt8] {
        seal(type, plaintextCount: bytes.count, account: account, endsSession: endsSession) { header, nonce, data in
            ChaCha20Poly1305.seal(key: sendKey, nonce: nonce, publicPlaintext: bytes, additionalData: data, prefixedWith: header)
        }
    }

    /// Seals an abort with `reason`; aborts are bound to `TH1` (Spec 4.3).
    func sealAbort(_ reason: AbortReason) -> [UInt8] {
        seal(.abort, publicBytes: [reason.rawValue])
    }

    private func seal(_ type: MessageType, plaintextCount: Int, account: AccountLinkID?, endsSession: Bool,
                      _ encrypt: (_ header: [UInt8], _ nonce: [UInt8], _ additionalData: [UInt8]) -> [UInt8]) -> [UInt8] {
        let sequence = nextSendSequence
        let header = Frame.header(type: type, transferID: transferID, sequence: sequence,
                                  bodyLength: plaintextCount + ChaCha20Poly1305.tagByteCount)
        let bytes = encrypt(header, Self.nonce(sequence: sequence), additionalData(header: header[...], type: type, account: account))
        nextSendSequence += 1
        if type != .abort, !endsSession { transcript.absorb(frame: bytes) }
        return bytes
    }

    /// Checks sequence and type (E1-E3), then authenticates and decrypts (E4): the common path
    /// of every encrypted frame. On success the receive sequence advances and the frame is
    /// chained into the transcript (unless it is an abort, or `endsSession`: the session
    /// finishes whatever authenticates, so that hash would never be read).
    ///
    /// - Throws: ``HandoffError/replayed``, ``HandoffError/outOfOrder``,
    ///   ``HandoffError/unexpectedMessage(_:in:)``, ``HandoffError/authenticationFailed``,
    ///   ``HandoffError/secureMemoryUnavailable(_:)``. State is unchanged when it throws.
    func open(_ frame: Frame, received bytes: [UInt8], expecting expected: Expectation, in phase: SessionPhase,
              account: AccountLinkID?, endsSession: Bool = false) throws(HandoffError) -> SecretBytes {
        // The strict decoder re-encodes to exactly the received bytes, so they serve as the
        // frame's header and wire bytes without building them again.
        assert(bytes.count == Frame.headerByteCount + frame.body.count, "frame and received bytes differ")
        if frame.sequence < nextReceiveSequence { throw .replayed }
        if frame.sequence > nextReceiveSequence, frame.type != .abort { throw .outOfOrder }
        switch expected {
        case .nothing:
            throw .unexpectedMessage(frame.type, in: phase)
        case .abortOnly:
            guard frame.type == .abort else { throw .unexpectedMessage(frame.type, in: phase) }
        case .type(let type):
            guard frame.type == .abort || frame.type == type else { throw .unexpectedMessage(frame.type, in: phase) }
        }
        let plaintext = try ChaCha20Poly1305.open(key: receiveKey, nonce: Self.nonce(sequence: frame.sequence),
                                                  sealed: frame.body,
                                                  additionalData: additionalData(header: bytes[..<Frame.headerByteCount],
                                                                                 type: frame.type, account: account))
        nextReceiveSequence = frame.sequence &+ 1
        if frame.type != .abort, !endsSession { transcript.absorb(frame: bytes) }
        return plaintext
    }

    /// Decodes `bytes` and checks that they belong to `transferID` (Spec 6.0).
    static func decode(_ bytes: [UInt8], for transferID: TransferID) throws(HandoffError) -> Frame {
        let frame = try Frame(bytes: bytes)
        guard frame.transferID == transferID else { throw .unknownTransfer }
        return frame
    }

    /// Wipes the keys.
    func wipe() { keys.wipe() }

    /// The keys' secrets, for tests that prove terminal states wipe them.
    var secrets: [SecretBytes] { keys.secrets }
}
