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
    let handshakeTranscript: SHA256.Digest
    private(set) var transcript: Transcript
    private var nextSendSequence: UInt32
    private var nextReceiveSequence: UInt32

    /// Creates the channel after the hello frame has been absorbed into `transcript`.
    init(role: Role, payload: SessionPayload, keys: SessionKeys, transcript: Transcript) {
        self.role = role
        self.transferID = payload.transferID
        self.expiry = payload.expiry
        self.keys = keys
        self.handshakeTranscript = transcript.digest
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
        [UInt8](unsafeUninitializedCapacity: ChaCha20Poly1305.nonceByteCount) { buffer, initialized in
            var writer = BufferWriter(UnsafeMutableRawBufferPointer(buffer))
            writeNonce(sequence: sequence, to: &writer)
            initialized = writer.count
        }
    }

    private static func writeNonce(sequence: UInt32, to writer: inout BufferWriter) {
        writer.writeZeros(8)
        writer.write(sequence)
    }

    /// Whether the AD of `type` binds the account link ID (accept, credential, receipt).
    package static func bindsAccount(_ type: MessageType) -> Bool {
        switch type {
        case .accept, .credential, .receipt: true
        case .hello, .reveal, .offer, .abort: false
        }
    }

    /// The longest AD: a header, the expiry, a transcript hash and a link ID.
    private static let maximumAdditionalDataByteCount = Frame.headerByteCount + 4 + SHA256.byteCount + AccountLinkID.byteCount

    /// Calls `body` with the AEAD nonce of `sequence` and the AD of a frame of `type` with
    /// this `header`, both built on the stack. The AD is `header | expiry(4) | transcript hash |
    /// linkID (accept, credential, receipt only)`, where the hash is `TH1` for aborts and the
    /// current transcript hash otherwise (Spec 4.3).
    private func withNonceAndAdditionalData<Result>(
        sequence: UInt32, header: UnsafeRawBufferPointer, type: MessageType, account: AccountLinkID?,
        _ body: (_ nonce: UnsafeRawBufferPointer, _ additionalData: UnsafeRawBufferPointer) -> Result
    ) -> Result {
        let nonceCount = ChaCha20Poly1305.nonceByteCount
        return withUnsafeTemporaryAllocation(byteCount: nonceCount + Self.maximumAdditionalDataByteCount, alignment: 8) { buffer in
            var nonce = BufferWriter(UnsafeMutableRawBufferPointer(rebasing: buffer[..<nonceCount]))
            Self.writeNonce(sequence: sequence, to: &nonce)
            var additionalData = BufferWriter(UnsafeMutableRawBufferPointer(rebasing: buffer[nonceCount...]))
            additionalData.write(header)
            additionalData.write(expiry)
            (type == .abort ? handshakeTranscript : transcript.digest).withUnsafeBytes { additionalData.write($0) }
            if Self.bindsAccount(type), let account { additionalData.write(account.bytes) }
            return body(nonce.written, additionalData.written)
        }
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
        plaintext.withUnsafeBytes { seal(type, plaintextBytes: $0, account: account, endsSession: endsSession) }
    }

    /// Seals a plaintext that is no secret, straight from its bytes: a receipt status, the
    /// empty accept (Spec 3.6). It needs no guarded memory, so it cannot fail.
    func seal(_ type: MessageType, publicBytes bytes: UnsafeRawBufferPointer, account: AccountLinkID? = nil,
              endsSession: Bool = false) -> [UInt8] {
        seal(type, plaintextBytes: bytes, account: account, endsSession: endsSession)
    }

    /// Seals a plaintext that is no secret, written by `write` straight into the frame (exactly
    /// `byteCount` bytes) and encrypted there in place: the offer's account metadata (Spec 3.4),
    /// with the frame's wire bytes as its only allocation.
    func seal(_ type: MessageType, publicByteCount byteCount: Int, account: AccountLinkID? = nil,
              writingPlaintext write: (UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        seal(type, plaintextByteCount: byteCount, account: account, endsSession: false) { nonce, additionalData, body in
            let plaintext = UnsafeMutableRawBufferPointer(rebasing: body[..<byteCount])
            write(plaintext)
            // libsodium's AEAD encrypts in place: the ciphertext overwrites the plaintext.
            ChaCha20Poly1305.seal(key: sendKey, nonce: nonce, plaintext: UnsafeRawBufferPointer(plaintext),
                                  additionalData: additionalData, into: body)
        }
    }

    /// Seals an abort with `reason`; aborts are bound to `TH1` (Spec 4.3).
    func sealAbort(_ reason: AbortReason) -> [UInt8] {
        withUnsafeBytes(of: reason.rawValue) { seal(.abort, plaintextBytes: $0, account: nil, endsSession: false) }
    }

    private func seal(_ type: MessageType, plaintextBytes plaintext: UnsafeRawBufferPointer, account: AccountLinkID?,
                      endsSession: Bool) -> [UInt8] {
        seal(type, plaintextByteCount: plaintext.count, account: account, endsSession: endsSession) { nonce, additionalData, body in
            ChaCha20Poly1305.seal(key: sendKey, nonce: nonce, plaintext: plaintext, additionalData: additionalData, into: body)
        }
    }

    /// The frame's wire bytes are its only allocation: the header is written into them and
    /// `sealBody` fills the body (ciphertext and tag) right after it, with the nonce and AD on
    /// the stack.
    private func seal(_ type: MessageType, plaintextByteCount: Int, account: AccountLinkID?, endsSession: Bool,
                      sealBody: (_ nonce: UnsafeRawBufferPointer, _ additionalData: UnsafeRawBufferPointer,
                                 _ body: UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        let sequence = nextSendSequence
        let bytes = Frame.wire(type: type, transferID: transferID, sequence: sequence,
                               bodyLength: plaintextByteCount + ChaCha20Poly1305.tagByteCount) { header, body in
            withNonceAndAdditionalData(sequence: sequence, header: header, type: type, account: account) { nonce, additionalData in
                sealBody(nonce, additionalData, body)
            }
        }
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
        // The strict decoder keeps exactly the received bytes, so they serve as the frame's
        // header, body and wire bytes without building them again.
        assert(bytes == frame.bytes, "frame and received bytes differ")
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
        let opened = bytes.withUnsafeBytes { wire in
            let header = UnsafeRawBufferPointer(rebasing: wire[..<Frame.headerByteCount])
            let body = UnsafeRawBufferPointer(rebasing: wire[Frame.headerByteCount...])
            return withNonceAndAdditionalData(sequence: frame.sequence, header: header, type: frame.type, account: account) {
                nonce, additionalData in
                Result { () throws(HandoffError) in
                    try ChaCha20Poly1305.open(key: receiveKey, nonce: nonce, sealed: body, additionalData: additionalData)
                }
            }
        }
        let plaintext = try opened.get()
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
