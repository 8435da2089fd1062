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
    // A channel belongs to one session and is used from its context only (it is not
    // Sendable), and no access to these overlaps another: their dynamic exclusivity checks
    // are left out, as the session arena's are.
    @exclusivity(unchecked) package private(set) var transcript: Transcript
    @exclusivity(unchecked) private var nextSendSequence: UInt32
    @exclusivity(unchecked) private var nextReceiveSequence: UInt32

    /// Creates the channel after the hello frame has been absorbed into `transcript`.
    init(role: Role, payload: SessionPayload, keys: SessionKeys, transcript: Transcript) {
        self.role = role
        self.transferID = payload.transferID
        self.expiry = payload.expiry
        self.keys = keys
        self.handshakeTranscript = transcript.digest
        self.transcript = transcript
        self.nextSendSequence = Self.firstSendSequence(role)
        self.nextReceiveSequence = role == .sender ? 1 : 0
    }

    /// The typed way's channel (Spec 3.8, 4.5): `transcript` holds `TH1` (after the
    /// `pakeReply`), which aborts bind; the confirmation frames take the sequence numbers before
    /// `nextSendSequence` and `nextReceiveSequence`, and the caller absorbs `pakeConfirm`.
    init(typedRole role: Role, transferID: TransferID, expiry: UInt32, keys: SessionKeys, transcript: Transcript) {
        self.role = role
        self.transferID = transferID
        self.expiry = expiry
        self.keys = keys
        self.handshakeTranscript = transcript.digest
        self.transcript = transcript
        // s2r: pakeInit 0 and pakeConfirm 1 went before; r2s: pakeReply 0.
        self.nextSendSequence = role == .sender ? 2 : 1
        self.nextReceiveSequence = role == .sender ? 1 : 2
    }

    /// Absorbs the typed way's `pakeConfirm` into the transcript (`TH2`, Spec 4.5).
    func absorbConfirmation(_ frame: [UInt8]) {
        transcript.absorb(frame: frame)
    }

    /// The hello used sequence 0 of the receiver-to-sender direction.
    private static func firstSendSequence(_ role: Role) -> UInt32 { role == .receiver ? 1 : 0 }

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
    /// own copies of the keys, kept in `arena`, so either can be used and wiped without
    /// touching the other.
    func copy(in arena: SessionArena) -> SecureChannel {
        SecureChannel(copying: self, keys: SessionKeys(copying: keys, in: arena))
    }

    private var sendKey: SessionSecret { role == .sender ? keys.senderToReceiver : keys.receiverToSender }
    private var receiveKey: SessionSecret { role == .sender ? keys.receiverToSender : keys.senderToReceiver }

    /// The 96-bit AEAD nonce: eight zero bytes, then the sequence number big-endian.
    package static func nonce(sequence: UInt32) -> [UInt8] {
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
        case .hello, .reveal, .offer, .abort, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused: false
        }
    }

    /// The longest AD: a header, the expiry, a transcript hash and a link ID.
    private static let maximumAdditionalDataByteCount = Frame.headerByteCount + 4 + SHA256.byteCount + AccountLinkID.byteCount

    /// Calls `body` with the AEAD nonce of `sequence` and the AD of a frame of `type` with
    /// this `header`, both built on the stack. The AD is `header | expiry(4) | transcript hash |
    /// linkID (accept, credential, receipt only)`, where the hash is `TH1` for aborts and the
    /// current transcript hash otherwise (Spec 4.3); the caller passes the right one.
    private static func withNonceAndAdditionalData<Result>(
        sequence: UInt32, header: UnsafeRawBufferPointer, type: MessageType, expiry: UInt32, transcriptHash: SHA256.Digest,
        account: AccountLinkID?, _ body: (_ nonce: UnsafeRawBufferPointer, _ additionalData: UnsafeRawBufferPointer) -> Result
    ) -> Result {
        let nonceCount = ChaCha20Poly1305.nonceByteCount
        return withUnsafeTemporaryAllocation(byteCount: nonceCount + maximumAdditionalDataByteCount, alignment: 8) { buffer in
            var nonce = BufferWriter(UnsafeMutableRawBufferPointer(rebasing: buffer[..<nonceCount]))
            writeNonce(sequence: sequence, to: &nonce)
            var additionalData = BufferWriter(UnsafeMutableRawBufferPointer(rebasing: buffer[nonceCount...]))
            additionalData.write(header)
            additionalData.write(expiry)
            transcriptHash.withUnsafeBytes { additionalData.write($0) }
            if bindsAccount(type), let account { additionalData.write(account.bytes) }
            return body(nonce.written, additionalData.written)
        }
    }

    /// The hash the AD of a frame of `type` binds: `TH1` for aborts, the current one otherwise.
    private func boundTranscriptHash(_ type: MessageType) -> SHA256.Digest {
        type == .abort ? handshakeTranscript : transcript.digest
    }

    /// Encrypts `plaintext` (read where it lies: guarded memory for a secret) into the next
    /// frame of `type`, chains it into the transcript (unless it is an abort) and returns its
    /// wire bytes. `account` is the link ID both people confirmed, bound into accept,
    /// credential and receipt frames.
    ///
    /// - Parameter endsSession: the session finishes as soon as this frame is sent, so the
    ///   transcript hash that would absorb it is never read; it is not computed (the receipt's
    ///   `TH6`, Spec 4.1).
    package func seal(_ type: MessageType, plaintext: UnsafeRawBufferPointer, account: AccountLinkID? = nil,
              endsSession: Bool = false) -> [UInt8] {
        seal(type, plaintextByteCount: plaintext.count, account: account, endsSession: endsSession) { key, nonce, additionalData, body in
            ChaCha20Poly1305.seal(key: key, nonce: nonce, plaintext: plaintext, additionalData: additionalData, into: body)
        }
    }

    /// Seals a plaintext that is no secret, written by `write` straight into the frame (exactly
    /// `byteCount` bytes) and encrypted there in place: the offer's account metadata (Spec 3.4),
    /// with the frame's wire bytes as its only allocation.
    func seal(_ type: MessageType, publicByteCount byteCount: Int, account: AccountLinkID? = nil,
              writingPlaintext write: (UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        seal(type, plaintextByteCount: byteCount, account: account, endsSession: false) { key, nonce, additionalData, body in
            let plaintext = UnsafeMutableRawBufferPointer(rebasing: body[..<byteCount])
            write(plaintext)
            // libsodium's AEAD encrypts in place: the ciphertext overwrites the plaintext.
            ChaCha20Poly1305.seal(key: key, nonce: nonce, plaintext: UnsafeRawBufferPointer(plaintext),
                                  additionalData: additionalData, into: body)
        }
    }

    /// Seals an abort with `reason`; aborts are bound to `TH1` (Spec 4.3). Its plaintext is no
    /// secret, so it needs no guarded memory and cannot fail.
    func sealAbort(_ reason: AbortReason) -> [UInt8] {
        withUnsafeBytes(of: reason.rawValue) { seal(.abort, plaintext: $0) }
    }

    /// The frame's wire bytes are its only allocation: the header is written into them and
    /// `sealBody` fills the body (ciphertext and tag) right after it, with the nonce and AD on
    /// the stack and the send key read where it lies.
    private func seal(_ type: MessageType, plaintextByteCount: Int, account: AccountLinkID?, endsSession: Bool,
                      sealBody: (_ key: UnsafeRawBufferPointer, _ nonce: UnsafeRawBufferPointer,
                                 _ additionalData: UnsafeRawBufferPointer, _ body: UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        let bytes = sendKey.withUnsafeBytes { key in
            Self.sealFrame(type, sequence: nextSendSequence, transferID: transferID, expiry: expiry,
                           transcriptHash: boundTranscriptHash(type), account: account, plaintextByteCount: plaintextByteCount) {
                sealBody(key, $0, $1, $2)
            }
        }
        nextSendSequence += 1
        if type != .abort, !endsSession { transcript.absorb(frame: bytes) }
        return bytes
    }

    private static func sealFrame(_ type: MessageType, sequence: UInt32, transferID: TransferID, expiry: UInt32,
                                  transcriptHash: SHA256.Digest, account: AccountLinkID?, plaintextByteCount: Int,
                                  sealBody: (_ nonce: UnsafeRawBufferPointer, _ additionalData: UnsafeRawBufferPointer,
                                             _ body: UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        Frame.wire(type: type, transferID: transferID, sequence: sequence,
                   bodyLength: plaintextByteCount + ChaCha20Poly1305.tagByteCount) { header, body in
            withNonceAndAdditionalData(sequence: sequence, header: header, type: type, expiry: expiry,
                                       transcriptHash: transcriptHash, account: account) { nonce, additionalData in
                sealBody(nonce, additionalData, body)
            }
        }
    }

    /// The first abort of a channel that is never kept: a second device's, whose keys a hello
    /// just established and that only ever gets this one frame (Spec 6.1: `abort(3)` on its
    /// keys, at its own first sequence number). `keys` are the four derived keys side by side
    /// (``SessionKeys/derivedByteCount``, a temporary), `handshakeTranscript` its `TH1`.
    static func sealFirstAbort(_ reason: AbortReason, from role: Role, payload: SessionPayload,
                               keys: UnsafeRawBufferPointer, handshakeTranscript: SHA256.Digest) -> [UInt8] {
        let keyCount = SessionKeys.keyByteCount
        // hello | s2r | r2s | code
        let sendKey = UnsafeRawBufferPointer(rebasing: keys[(role == .sender ? 1 : 2) * keyCount..<(role == .sender ? 2 : 3) * keyCount])
        return withUnsafeBytes(of: reason.rawValue) { plaintext in
            sealFrame(.abort, sequence: firstSendSequence(role), transferID: payload.transferID, expiry: payload.expiry,
                      transcriptHash: handshakeTranscript, account: nil, plaintextByteCount: plaintext.count) { nonce, ad, body in
                ChaCha20Poly1305.seal(key: sendKey, nonce: nonce, plaintext: plaintext, additionalData: ad, into: body)
            }
        }
    }

    /// Checks sequence and type (E1-E3), then authenticates and decrypts (E4) into a temporary
    /// of `arena`, and calls `body` with the plaintext, which is wiped when it returns: the
    /// common path of every encrypted frame. On success the receive sequence advances and the
    /// frame is chained into the transcript (unless it is an abort, or `endsSession`: the
    /// session finishes whatever authenticates, so that hash would never be read).
    ///
    /// - Throws: ``HandoffError/replayed``, ``HandoffError/outOfOrder``,
    ///   ``HandoffError/unexpectedMessage(_:in:)``, ``HandoffError/authenticationFailed``.
    ///   State is unchanged when it throws, and `body` is not called.
    func open<Result>(_ frame: Frame, received bytes: [UInt8], expecting expected: Expectation, in phase: SessionPhase,
                      account: AccountLinkID?, endsSession: Bool = false, arena: SessionArena,
                      _ body: (MessageType, UnsafeRawBufferPointer) -> Result) throws(HandoffError) -> Result {
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
        let sealedCount = bytes.count - Frame.headerByteCount
        guard sealedCount >= ChaCha20Poly1305.tagByteCount else { throw .authenticationFailed }
        return try arena.withScratch(byteCount: sealedCount - ChaCha20Poly1305.tagByteCount) { (plaintext) throws(HandoffError) in
            let opened = bytes.withUnsafeBytes { wire in
                let header = UnsafeRawBufferPointer(rebasing: wire[..<Frame.headerByteCount])
                let sealed = UnsafeRawBufferPointer(rebasing: wire[Frame.headerByteCount...])
                return Self.withNonceAndAdditionalData(sequence: frame.sequence, header: header, type: frame.type, expiry: expiry,
                                                       transcriptHash: boundTranscriptHash(frame.type), account: account) {
                    nonce, additionalData in
                    receiveKey.withUnsafeBytes { key in
                        Swift.Result { () throws(HandoffError) in
                            try ChaCha20Poly1305.open(key: key, nonce: nonce, sealed: sealed, additionalData: additionalData,
                                                      into: plaintext)
                        }
                    }
                }
            }
            try opened.get()
            nextReceiveSequence = frame.sequence &+ 1
            if frame.type != .abort, !endsSession { transcript.absorb(frame: bytes) }
            return body(frame.type, UnsafeRawBufferPointer(plaintext))
        }
    }

    /// Decodes `bytes` and checks that they belong to `transferID` (Spec 6.0).
    static func decode(_ bytes: [UInt8], for transferID: TransferID) throws(HandoffError) -> Frame {
        let frame = try Frame(bytes: bytes)
        guard frame.transferID == transferID else { throw .unknownTransfer }
        return frame
    }

    /// Wipes the keys.
    func wipe() { keys.wipe() }
}
