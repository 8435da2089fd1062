/// Read access to a live session's secrets and transcript, for test vectors only (Spec 4).
///
/// - Warning: Copies secrets out of guarded memory. Never use in an app.
@_spi(Vectors) public struct SessionSecretsSnapshot: Sendable {
    /// This side's X25519 private key.
    public let privateKey: [UInt8]
    /// This side's X25519 public key.
    public let publicKey: [UInt8]
    /// `helloKey`, `s2rKey`, `r2sKey`, once the session has keys.
    public let helloKey: [UInt8]?
    /// Sender-to-receiver AEAD key.
    public let senderToReceiverKey: [UInt8]?
    /// Receiver-to-sender AEAD key.
    public let receiverToSenderKey: [UInt8]?
    /// `TH1`, once the hello is sent or accepted.
    public let handshakeTranscript: [UInt8]?
    /// The current transcript hash `TH`, once the hello is sent or accepted.
    public let transcript: [UInt8]?
    /// The account link ID bound into accept, credential and receipt frames, once known.
    public let linkID: [UInt8]?
}

extension SecureChannel {
    fileprivate func snapshot(privateKey: SecretBytes, publicKey: X25519PublicKey) -> SessionSecretsSnapshot {
        SessionSecretsSnapshot(privateKey: privateKey.revealedBytes(), publicKey: publicKey.bytes,
                               helloKey: keys.helloKey.revealedBytes(),
                               senderToReceiverKey: keys.senderToReceiver.revealedBytes(),
                               receiverToSenderKey: keys.receiverToSender.revealedBytes(),
                               handshakeTranscript: handshakeTranscript, transcript: transcript.hash,
                               linkID: linkID?.bytes)
    }
}

extension HandoffSender {
    /// A copy of the sender's secrets and transcript right now (wiped ones read as zeros).
    @_spi(Vectors) public var vectorSnapshot: SessionSecretsSnapshot {
        channel?.snapshot(privateKey: keyPair.privateKey, publicKey: keyPair.publicKey)
            ?? SessionSecretsSnapshot(privateKey: keyPair.privateKey.revealedBytes(), publicKey: keyPair.publicKey.bytes,
                                      helloKey: nil, senderToReceiverKey: nil, receiverToSenderKey: nil,
                                      handshakeTranscript: nil, transcript: nil, linkID: nil)
    }

    /// `TH0` of this session's QR.
    @_spi(Vectors) public var vectorInitialTranscript: [UInt8] { initialTranscript.hash }

    /// The challenge as drawn at start (read from the public payload).
    @_spi(Vectors) public var vectorChallenge: [UInt8] { payload.challenge }
}

extension HandoffReceiver {
    /// A copy of the receiver's secrets and transcript right now (wiped ones read as zeros).
    @_spi(Vectors) public var vectorSnapshot: SessionSecretsSnapshot {
        channel.snapshot(privateKey: keyPair.privateKey, publicKey: keyPair.publicKey)
    }
}
