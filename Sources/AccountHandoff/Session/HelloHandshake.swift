/// Building and verifying the hello (Spec 4.2, 5.1): the receiver's public key and
/// `HMAC(helloKey, HH)`, which proves the receiver saw the QR's commitment.
enum HelloHandshake {
    /// Derives the session keys on the receiver's side and builds its hello frame.
    ///
    /// - Throws: ``HandoffError/lowOrderPublicKey``, ``HandoffError/secureMemoryUnavailable(_:)``;
    ///   nothing is kept when it throws.
    static func make(payload: SessionPayload, keyPair: X25519KeyPair, commitment: SecretBytes,
                     initial: Transcript) throws(HandoffError) -> (keys: SessionKeys, frame: [UInt8]) {
        let handshakeHash = initial.handshakeHash(receiverPublicKey: keyPair.publicKey)
        let keys = try payload.senderPublicKey.bytes.withUnsafeBytes { peer in
            Result { () throws(HandoffError) in
                try deriveKeys(privateKey: keyPair.privateKey, peer: peer, commitment: commitment, handshakeHash: handshakeHash)
            }
        }.get()
        do {
            // The tag lives in guarded memory until it is written into the frame, `publicKey | tag`.
            let frame = try SecretBytes.withTemporary(byteCount: HMACSHA256.byteCount) { (tag) throws(HandoffError) in
                keys.writeHelloTag(handshakeHash: handshakeHash, into: tag)
                return Frame.wire(type: .hello, transferID: payload.transferID, sequence: 0,
                                  bodyLength: X25519PublicKey.byteCount + HMACSHA256.byteCount) { _, body in
                    var writer = BufferWriter(body)
                    writer.write(keyPair.publicKey.bytes)
                    writer.write(UnsafeRawBufferPointer(tag))
                }
            }
            return (keys, frame)
        } catch {
            keys.wipe()
            throw error
        }
    }

    /// Verifies a hello on the sender's side (H2-H4) and returns the keys it establishes.
    ///
    /// - Throws: `.malformed(.sequence)`, ``HandoffError/lowOrderPublicKey``,
    ///   ``HandoffError/authenticationFailed``, ``HandoffError/secureMemoryUnavailable(_:)``;
    ///   nothing is kept when it throws.
    static func verify(_ frame: Frame, privateKey: SecretBytes, commitment: SecretBytes,
                       initial: Transcript) throws(HandoffError) -> SessionKeys {
        guard frame.sequence == 0 else { throw .malformed(.sequence) }
        // The frame decoder guarantees a 64-byte hello body (Spec 3.2): the peer's public key and
        // the tag, both read where they lie in the frame.
        return try frame.bodyBytes.withUnsafeBytes { body in
            Result { () throws(HandoffError) in
                guard body.count >= X25519PublicKey.byteCount else { throw .malformed(.body) }
                return try verify(peer: UnsafeRawBufferPointer(rebasing: body[..<X25519PublicKey.byteCount]),
                                  presentedTag: UnsafeRawBufferPointer(rebasing: body[X25519PublicKey.byteCount...]),
                                  privateKey: privateKey, commitment: commitment, initial: initial)
            }
        }.get()
    }

    /// H3-H4 for the hello's public key and tag.
    private static func verify(peer: UnsafeRawBufferPointer, presentedTag: UnsafeRawBufferPointer, privateKey: SecretBytes,
                               commitment: SecretBytes, initial: Transcript) throws(HandoffError) -> SessionKeys {
        let handshakeHash = initial.handshakeHash(receiverPublicKey: peer)
        let keys = try deriveKeys(privateKey: privateKey, peer: peer, commitment: commitment, handshakeHash: handshakeHash)
        let authentic: Bool
        do {
            authentic = try SecretBytes.withTemporary(byteCount: HMACSHA256.byteCount) { (expectedTag) throws(HandoffError) in
                keys.writeHelloTag(handshakeHash: handshakeHash, into: expectedTag)
                return ConstantTime.equal(UnsafeRawBufferPointer(expectedTag), presentedTag)
            }
        } catch {
            keys.wipe()
            throw error
        }
        guard authentic else {
            keys.wipe()
            throw .authenticationFailed
        }
        return keys
    }

    /// The X25519 shared secret lives only in a temporary guarded buffer, wiped once the keys
    /// are derived from it.
    private static func deriveKeys(privateKey: SecretBytes, peer: UnsafeRawBufferPointer, commitment: SecretBytes,
                                   handshakeHash: SHA256.Digest) throws(HandoffError) -> SessionKeys {
        try SecretBytes.withTemporary(byteCount: X25519PublicKey.byteCount) { (shared) throws(HandoffError) in
            try X25519.sharedSecret(privateKey: privateKey, peer: peer, into: shared)
            return try SessionKeys(sharedSecret: UnsafeRawBufferPointer(shared), commitment: commitment, handshakeHash: handshakeHash)
        }
    }
}
