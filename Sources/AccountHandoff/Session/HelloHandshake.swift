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
        let tag: SecretBytes
        do { tag = try keys.helloTag(handshakeHash: handshakeHash) } catch {
            keys.wipe()
            throw error
        }
        defer { tag.wipe() }
        // The body, `publicKey | tag`, is written straight into the frame's wire bytes.
        let frame = Frame.wire(type: .hello, transferID: payload.transferID, sequence: 0,
                               bodyLength: X25519PublicKey.byteCount + HMACSHA256.byteCount) { _, body in
            var writer = BufferWriter(body)
            writer.write(keyPair.publicKey.bytes)
            tag.withUnsafeBytes { writer.write($0) }
        }
        return (keys, frame)
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
        let expectedTag: SecretBytes
        do { expectedTag = try keys.helloTag(handshakeHash: handshakeHash) } catch {
            keys.wipe()
            throw error
        }
        defer { expectedTag.wipe() }
        guard presentedTag.withUnsafeBytes({ expectedTag.constantTimeEquals($0) }) else {
            keys.wipe()
            throw .authenticationFailed
        }
        return keys
    }

    private static func deriveKeys(privateKey: SecretBytes, peer: X25519PublicKey, commitment: SecretBytes,
                                   handshakeHash: SHA256.Digest) throws(HandoffError) -> SessionKeys {
        let shared = try X25519.sharedSecret(privateKey: privateKey, peer: peer)
        defer { shared.wipe() }
        return try SessionKeys(sharedSecret: shared, commitment: commitment, handshakeHash: handshakeHash)
    }
}
