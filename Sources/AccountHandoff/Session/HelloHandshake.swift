/// Building and verifying the hello (Spec 4.2, 5.1): the receiver's public key and
/// `HMAC(helloKey, HH)`, which proves the receiver saw the QR challenge.
enum HelloHandshake {
    /// Derives the session keys on the receiver's side and builds its hello frame.
    static func make(payload: SessionPayload, keyPair: X25519KeyPair, challenge: SecretBytes,
                     initial: Transcript) throws(HandoffError) -> (keys: SessionKeys, frame: [UInt8]) {
        let handshakeHash = initial.handshakeHash(receiverPublicKey: keyPair.publicKey)
        let keys = try deriveKeys(privateKey: keyPair.privateKey, peer: payload.senderPublicKey,
                                  challenge: challenge, handshakeHash: handshakeHash)
        let tag = keys.helloTag(handshakeHash: handshakeHash)
        defer { tag.wipe() }
        let body = keyPair.publicKey.bytes + tag.withUnsafeBytes { Array($0) }
        let frame = Frame(type: .hello, transferID: payload.transferID, sequence: 0, body: body)
        return (keys, frame.bytes)
    }

    /// Verifies a hello on the sender's side and returns the keys it establishes.
    ///
    /// - Throws: `.malformed(.sequence)`, ``HandoffError/lowOrderPublicKey``,
    ///   ``HandoffError/authenticationFailed``; nothing is kept when it throws.
    static func verify(_ frame: Frame, privateKey: SecretBytes, challenge: SecretBytes,
                       initial: Transcript) throws(HandoffError) -> SessionKeys {
        guard frame.sequence == 0 else { throw .malformed(.sequence) }
        let peer = X25519PublicKey(bytes: Array(frame.body[0..<X25519PublicKey.byteCount]))!
        let presentedTag = Array(frame.body[X25519PublicKey.byteCount...])
        let handshakeHash = initial.handshakeHash(receiverPublicKey: peer)
        let keys = try deriveKeys(privateKey: privateKey, peer: peer, challenge: challenge, handshakeHash: handshakeHash)
        let expectedTag = keys.helloTag(handshakeHash: handshakeHash)
        defer { expectedTag.wipe() }
        let valid = expectedTag.withUnsafeBytes { expected in
            presentedTag.withUnsafeBytes { presented in ConstantTime.equal(expected, presented) }
        }
        guard valid else {
            keys.wipe()
            throw .authenticationFailed
        }
        return keys
    }

    private static func deriveKeys(privateKey: SecretBytes, peer: X25519PublicKey, challenge: SecretBytes,
                                   handshakeHash: [UInt8]) throws(HandoffError) -> SessionKeys {
        let shared = try X25519.sharedSecret(privateKey: privateKey, peer: peer)
        defer { shared.wipe() }
        return try SessionKeys(sharedSecret: shared, challenge: challenge, handshakeHash: handshakeHash)
    }
}
