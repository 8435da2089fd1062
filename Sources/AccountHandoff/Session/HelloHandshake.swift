/// Building and verifying the hello (Spec 4.2, 5.1): the receiver's public key and
/// `HMAC(helloKey, HH)`, which proves the receiver saw the QR's commitment. Every secret of the
/// handshake (the private key of a receiver, the shared secret, the PRK, the tag) is a
/// temporary of the session's arena.
enum HelloHandshake {
    /// The receiver's side (Spec 2.5 S5-S7): draws its key pair, derives the session keys
    /// (kept in `arena`) and builds its hello frame. The private key and the copy of the
    /// commitment live only while the hello is built (Spec 6.5).
    ///
    /// - Throws: ``HandoffError/lowOrderPublicKey``; nothing is kept when it throws.
    static func make(payload: SessionPayload, random: RandomSource, initial: Transcript,
                     arena: SessionArena) throws(HandoffError) -> (keys: SessionKeys, frame: [UInt8]) {
        try arena.withScratch(byteCount: X25519PublicKey.byteCount + SessionPayload.commitmentByteCount) {
            (secrets) throws(HandoffError) in
            let privateKey = UnsafeMutableRawBufferPointer(rebasing: secrets[..<X25519PublicKey.byteCount])
            let commitment = UnsafeMutableRawBufferPointer(rebasing: secrets[X25519PublicKey.byteCount...])
            random.fill(privateKey)
            payload.commitmentBytes.withUnsafeBytes { commitment.copyMemory(from: $0) }
            let publicKey = X25519.publicKey(for: UnsafeRawBufferPointer(privateKey))
            let handshakeHash = initial.handshakeHash(receiverPublicKey: publicKey)
            let peer = payload.senderPublicKey
            return try derive(privateKey: UnsafeRawBufferPointer(privateKey), peer: peer, commitment: UnsafeRawBufferPointer(commitment),
                              handshakeHash: handshakeHash, arena: arena) { derived in
                let frame = arena.withScratch(byteCount: HMACSHA256.byteCount) { tag in
                    SessionKeys.writeHelloTag(helloKey: helloKey(of: derived), handshakeHash: handshakeHash, into: tag)
                    return Frame.wire(type: .hello, transferID: payload.transferID, sequence: 0,
                                      bodyLength: X25519PublicKey.byteCount + HMACSHA256.byteCount) { _, body in
                        var writer = BufferWriter(body)
                        publicKey.withUnsafeBytes { writer.write($0) }
                        writer.write(UnsafeRawBufferPointer(tag))
                    }
                }
                return (SessionKeys(keeping: derived, in: arena), frame)
            }
        }
    }

    /// Verifies a hello on the sender's side (H2-H4) with the QR's secrets and calls `body`
    /// with what it establishes; those keys are a temporary, wiped when `body` returns, so a
    /// hello that is not kept (a second device's) leaves nothing in the arena.
    ///
    /// - Throws: `.malformed(.sequence)`, ``HandoffError/lowOrderPublicKey``,
    ///   ``HandoffError/authenticationFailed``; `body` is not called then.
    static func verify<Result>(_ frame: Frame, bytes: [UInt8], privateKey: SessionSecret, commitment: SessionSecret,
                               initial: Transcript, arena: SessionArena,
                               _ body: (VerifiedHello) -> Result) throws(HandoffError) -> Result {
        guard frame.sequence == 0 else { throw .malformed(.sequence) }
        // The frame decoder guarantees a 64-byte hello body (Spec 3.2): the peer's public key and
        // the tag, both read where they lie in the frame.
        return try frame.bodyBytes.withUnsafeBytes { helloBody in
            Swift.Result { () throws(HandoffError) in
                guard helloBody.count == X25519PublicKey.byteCount + HMACSHA256.byteCount else { throw .malformed(.body) }
                let peer = UnsafeRawBufferPointer(rebasing: helloBody[..<X25519PublicKey.byteCount])
                let presentedTag = UnsafeRawBufferPointer(rebasing: helloBody[X25519PublicKey.byteCount...])
                let handshakeHash = initial.handshakeHash(receiverPublicKey: peer)
                return try privateKey.withUnsafeBytes { (privateKey) throws(HandoffError) in
                    try commitment.withUnsafeBytes { (commitment) throws(HandoffError) in
                        try derive(privateKey: privateKey, peer: peer, commitment: commitment, handshakeHash: handshakeHash,
                                   arena: arena) { (derived) throws(HandoffError) in
                            let authentic = arena.withScratch(byteCount: HMACSHA256.byteCount) { expectedTag in
                                SessionKeys.writeHelloTag(helloKey: helloKey(of: derived), handshakeHash: handshakeHash, into: expectedTag)
                                return ConstantTime.equal(UnsafeRawBufferPointer(expectedTag), presentedTag)
                            }
                            guard authentic else { throw .authenticationFailed }
                            var transcript = initial
                            transcript.absorb(frame: bytes)
                            return body(VerifiedHello(keys: derived, transcript: transcript))
                        }
                    }
                }
            }
        }.get()
    }

    /// H3: the X25519 shared secret (a temporary, wiped once the keys are derived from it), then
    /// the four keys side by side in another temporary, handed to `body`.
    private static func derive<Result>(privateKey: UnsafeRawBufferPointer, peer: UnsafeRawBufferPointer,
                                       commitment: UnsafeRawBufferPointer, handshakeHash: SHA256.Digest, arena: SessionArena,
                                       _ body: (UnsafeRawBufferPointer) throws(HandoffError) -> Result) throws(HandoffError) -> Result {
        try arena.withScratch(byteCount: SessionKeys.derivedByteCount) { (derived) throws(HandoffError) in
            try arena.withScratch(byteCount: X25519PublicKey.byteCount) { (shared) throws(HandoffError) in
                try X25519.sharedSecret(privateKey: privateKey, peer: peer, into: shared)
                SessionKeys.derive(sharedSecret: UnsafeRawBufferPointer(shared), commitment: commitment, handshakeHash: handshakeHash,
                                   into: derived, arena: arena)
            }
            return try body(UnsafeRawBufferPointer(derived))
        }
    }

    /// ``derive(privateKey:peer:commitment:handshakeHash:arena:_:)-(_,UnsafeRawBufferPointer,_,_,_,_)``
    /// with the QR's public key.
    private static func derive<Result>(privateKey: UnsafeRawBufferPointer, peer: X25519PublicKey,
                                       commitment: UnsafeRawBufferPointer, handshakeHash: SHA256.Digest, arena: SessionArena,
                                       _ body: (UnsafeRawBufferPointer) throws(HandoffError) -> Result) throws(HandoffError) -> Result {
        try peer.withUnsafeBytes { (peer) throws(HandoffError) in
            try derive(privateKey: privateKey, peer: peer, commitment: commitment, handshakeHash: handshakeHash, arena: arena, body)
        }
    }

    private static func helloKey(of derived: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: derived[..<SessionKeys.keyByteCount])
    }
}

/// A hello that passed H1-H4 at the sender: the keys it establishes (a temporary of the
/// session's arena, valid only while the row that got it runs) and the transcript after it.
struct VerifiedHello {
    /// The four session keys side by side (``SessionKeys/derivedByteCount``).
    let keys: UnsafeRawBufferPointer
    /// `TH1`: the transcript with the hello absorbed.
    let transcript: Transcript

    /// The channel to this hello's receiver, its keys kept in `arena`: the accepted receiver.
    func keep(in arena: SessionArena, payload: SessionPayload) -> SecureChannel {
        SecureChannel(role: .sender, payload: payload, keys: SessionKeys(keeping: keys, in: arena), transcript: transcript)
    }

    /// The one frame a second device gets: `abort(reason)` on its own keys (Spec 6.1).
    func sealAbort(_ reason: AbortReason, payload: SessionPayload) -> [UInt8] {
        SecureChannel.sealFirstAbort(reason, from: .sender, payload: payload, keys: keys, handshakeTranscript: transcript.digest)
    }
}
