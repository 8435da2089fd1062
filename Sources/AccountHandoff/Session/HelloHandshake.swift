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
        let keys = try deriveKeys(privateKey: keyPair.privateKey, peer: payload.senderPublicKey,
                                  commitment: commitment, handshakeHash: handshakeHash)
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
        // The frame decoder guarantees a 64-byte hello body (Spec 3.2).
        guard let peer = X25519PublicKey(bytes: Array(frame.bodyBytes.prefix(X25519PublicKey.byteCount))) else {
            throw .malformed(.body)
        }
        let presentedTag = frame.bodyBytes.dropFirst(X25519PublicKey.byteCount)
        let handshakeHash = initial.handshakeHash(receiverPublicKey: peer)
        let keys = try deriveKeys(privateKey: privateKey, peer: peer, commitment: commitment, handshakeHash: handshakeHash)
        let authentic: Bool
        do {
            authentic = try SecretBytes.withTemporary(byteCount: HMACSHA256.byteCount) { (expectedTag) throws(HandoffError) in
                keys.writeHelloTag(handshakeHash: handshakeHash, into: expectedTag)
                return presentedTag.withUnsafeBytes { ConstantTime.equal(UnsafeRawBufferPointer(expectedTag), $0) }
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
    private static func deriveKeys(privateKey: SecretBytes, peer: X25519PublicKey, commitment: SecretBytes,
                                   handshakeHash: SHA256.Digest) throws(HandoffError) -> SessionKeys {
        try SecretBytes.withTemporary(byteCount: X25519PublicKey.byteCount) { (shared) throws(HandoffError) in
            try X25519.sharedSecret(privateKey: privateKey, peer: peer, into: shared)
            return try SessionKeys(sharedSecret: UnsafeRawBufferPointer(shared), commitment: commitment, handshakeHash: handshakeHash)
        }
    }
}
