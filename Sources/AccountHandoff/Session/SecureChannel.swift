/// The encrypted channel both roles share once the hello is accepted (Spec 4.3 and 5):
/// per-direction keys, per-direction sequence numbers that double as AEAD nonces, and the
/// transcript that every non-abort frame is bound to and chained into.
final class SecureChannel {
    /// Which end of the channel this is; selects the send and receive keys.
    enum Role { case sender, receiver }

    let role: Role
    let transferID: TransferID
    let expiry: UInt32
    let keys: SessionKeys
    /// `TH1`, the transcript right after the hello; abort frames are bound to it because an
    /// abort may cross another frame in flight, after which the two transcripts differ.
    let handshakeTranscript: [UInt8]
    private(set) var transcript: Transcript
    private var nextSendSequence: UInt32
    private var nextReceiveSequence: UInt32
    /// Set once the offer is sent or received; bound into accept, credential and receipt frames.
    var linkID: AccountLinkID?

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

    private var sendKey: SecretBytes { role == .sender ? keys.senderToReceiver : keys.receiverToSender }
    private var receiveKey: SecretBytes { role == .sender ? keys.receiverToSender : keys.senderToReceiver }

    /// The 96-bit AEAD nonce: eight zero bytes, then the sequence number big-endian.
    static func nonce(sequence: UInt32) -> [UInt8] {
        var writer = ByteWriter()
        writer.write([UInt8](repeating: 0, count: 8))
        writer.write(sequence)
        return writer.bytes
    }

    /// `header | expiry(4) | transcript hash | linkID (accept, credential, receipt only)`,
    /// where the hash is `TH1` for aborts and the current transcript hash otherwise.
    func additionalData(for frame: Frame) -> [UInt8] {
        var writer = ByteWriter()
        writer.write(frame.header)
        writer.write(expiry)
        writer.write(frame.type == .abort ? handshakeTranscript : transcript.hash)
        if [.accept, .credential, .receipt].contains(frame.type) {
            guard let linkID else { preconditionFailure("account frame before the offer") }
            writer.write(linkID.bytes)
        }
        return writer.bytes
    }

    /// Encrypts `plaintext` into the next frame of `type`, chains it into the transcript
    /// (unless it is an abort) and returns its wire bytes.
    func seal(_ type: MessageType, plaintext: SecretBytes) -> [UInt8] {
        let sequence = nextSendSequence
        nextSendSequence += 1
        let placeholder = Frame(type: type, transferID: transferID, sequence: sequence,
                                body: [UInt8](repeating: 0, count: plaintext.count + ChaCha20Poly1305.tagByteCount))
        let body = ChaCha20Poly1305.seal(key: sendKey, nonce: Self.nonce(sequence: sequence),
                                         plaintext: plaintext, additionalData: additionalData(for: placeholder))
        let bytes = Frame(type: type, transferID: transferID, sequence: sequence, body: body).bytes
        if type != .abort { transcript.absorb(frame: bytes) }
        return bytes
    }

    /// Fails unless `frame` carries exactly the next expected sequence number. An abort may
    /// also skip ahead: it can overtake a frame the peer sent just before it (the peer may
    /// cancel right after sending), and it ends the session, so it is never followed by another.
    func checkSequence(_ frame: Frame) throws(HandoffError) {
        if frame.sequence < nextReceiveSequence { throw .replayed }
        if frame.sequence > nextReceiveSequence, frame.type != .abort { throw .outOfOrder }
    }

    /// Authenticates and decrypts `frame`; on success advances the receive sequence and
    /// chains the frame into the transcript (unless it is an abort).
    ///
    /// - Throws: ``HandoffError/replayed``, ``HandoffError/outOfOrder``,
    ///   ``HandoffError/authenticationFailed``. State is unchanged when it throws.
    func open(_ frame: Frame) throws(HandoffError) -> SecretBytes {
        try checkSequence(frame)
        let plaintext = try ChaCha20Poly1305.open(key: receiveKey, nonce: Self.nonce(sequence: frame.sequence),
                                                  sealed: frame.body, additionalData: additionalData(for: frame))
        nextReceiveSequence = frame.sequence &+ 1
        if frame.type != .abort { transcript.absorb(frame: frame.bytes) }
        return plaintext
    }

    /// Checks sequence and type, then authenticates and decrypts: the common path of every
    /// encrypted frame. `expected` is the one non-abort type the caller's state accepts.
    ///
    /// - Throws: as ``open(_:)``, plus ``HandoffError/unexpectedMessage(_:in:)``.
    func open(_ frame: Frame, expecting expected: MessageType?, in state: SessionState) throws(HandoffError) -> SecretBytes {
        try checkSequence(frame)
        guard frame.type == .abort || frame.type == expected else { throw .unexpectedMessage(frame.type, in: state) }
        return try open(frame)
    }

    /// Decodes `bytes` and checks that they belong to `transferID`.
    static func decode(_ bytes: [UInt8], for transferID: TransferID) throws(HandoffError) -> Frame {
        let frame = try Frame(bytes: bytes)
        guard frame.transferID == transferID else { throw .unknownTransfer }
        return frame
    }

    /// A one-byte plaintext in guarded memory (receipt status, abort reason, or empty accept).
    static func plaintext(_ bytes: [UInt8]) -> SecretBytes { SecretBytes(copying: bytes) }

    /// Wipes the keys.
    func wipe() { keys.wipe() }
}
