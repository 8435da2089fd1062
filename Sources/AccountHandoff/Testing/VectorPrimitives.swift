/// Direct access to the protocol's primitives and codecs for test-vector generation, the
/// adversarial suite and verification tools (Spec sections 2-4). Visible only inside this
/// package (`package` access): an app that links the library cannot call it.
///
/// - Warning: These functions take and return secrets as plain arrays so vectors can print
///   them.
package enum VectorPrimitives {
    /// `SHA-256(concatenation of parts)`.
    package static func sha256(_ parts: [[UInt8]]) -> [UInt8] { SHA256.hash(parts: parts) }

    /// `HMAC-SHA256(key, message)`.
    package static func hmac(key: [UInt8], message: [UInt8]) throws(HandoffError) -> [UInt8] {
        try HMACSHA256.authenticate(key: SecretBytes(copying: key), message: message).revealedBytes()
    }

    /// `HKDF-Extract(salt, IKM)` with `IKM` the concatenation of `inputKeyMaterial`.
    package static func hkdfExtract(salt: [UInt8], inputKeyMaterial: [[UInt8]]) throws(HandoffError) -> [UInt8] {
        var parts: [SecretBytes] = []
        for part in inputKeyMaterial { parts.append(try SecretBytes(copying: part)) }
        return try HKDF.extract(salt: salt, inputKeyMaterial: parts).revealedBytes()
    }

    /// `HKDF-Expand(PRK, info, length)`.
    ///
    /// - Throws: ``HandoffError/keyDerivationFailed`` above 255 x 32 bytes.
    package static func hkdfExpand(pseudorandomKey: [UInt8], info: [UInt8], length: Int) throws(HandoffError) -> [UInt8] {
        try HKDF.expand(pseudorandomKey: SecretBytes(copying: pseudorandomKey), info: info, length: length).revealedBytes()
    }

    /// The X25519 public key of a 32-byte private key.
    package static func x25519PublicKey(privateKey: [UInt8]) throws(HandoffError) -> [UInt8] {
        X25519.publicKey(for: try SecretBytes(copying: privateKey)).bytes
    }

    /// `X25519(privateKey, peer)`.
    ///
    /// - Throws: ``HandoffError/lowOrderPublicKey`` for an all-zero result.
    package static func x25519(privateKey: [UInt8], peer: [UInt8]) throws(HandoffError) -> [UInt8] {
        guard let peerKey = X25519PublicKey(bytes: peer) else { throw .malformed(.publicKey) }
        return try X25519.sharedSecret(privateKey: SecretBytes(copying: privateKey), peer: peerKey).revealedBytes()
    }

    /// ChaCha20-Poly1305 IETF seal: `ciphertext | tag`.
    package static func seal(key: [UInt8], nonce: [UInt8], plaintext: [UInt8], additionalData: [UInt8]) throws(HandoffError) -> [UInt8] {
        ChaCha20Poly1305.seal(key: try SecretBytes(copying: key), nonce: nonce,
                              plaintext: try SecretBytes(copying: plaintext), additionalData: additionalData)
    }

    /// ChaCha20-Poly1305 IETF open.
    ///
    /// - Throws: ``HandoffError/authenticationFailed``.
    package static func open(key: [UInt8], nonce: [UInt8], sealed: [UInt8], additionalData: [UInt8]) throws(HandoffError) -> [UInt8] {
        try ChaCha20Poly1305.open(key: SecretBytes(copying: key), nonce: nonce, sealed: sealed,
                                  additionalData: additionalData).revealedBytes()
    }

    /// The AEAD nonce of a sequence number (Spec 4.3).
    package static func nonce(sequence: UInt32) -> [UInt8] { SecureChannel.nonce(sequence: sequence) }

    /// The short code of 64 bytes of code material, or `nil` when every candidate is rejected.
    package static func shortCode(material: [UInt8]) -> ShortCode? {
        material.withUnsafeBytes { ShortCode(material: $0) }
    }

    /// Index of the first accepted short-code candidate, or `nil` when all are rejected.
    package static func acceptedCandidateIndex(material: [UInt8]) -> Int? {
        material.withUnsafeBytes { ShortCode.acceptedCandidateIndex($0) }
    }

    /// The short code's rejection bound (Spec 4.4).
    package static var shortCodeRejectionBound: UInt32 { ShortCode.rejectionBound }

    /// The decimal-group text encoding of `bytes` (Spec 2.3), without the prefix.
    package static func decimalGroups(_ bytes: [UInt8]) -> String { DecimalChunks.encode(bytes) }

    /// The bytes of decimal-group text (Spec 2.3), without the prefix.
    ///
    /// - Throws: `malformed.digits`, `nonCanonicalEncoding`.
    package static func decimalGroupBytes(_ text: Substring) throws(HandoffError) -> [UInt8] { try DecimalChunks.decode(text) }

    /// The commitment of a nonce (Spec 2.1).
    package static func commitment(nonce: [UInt8]) throws(HandoffError) -> [UInt8] {
        Commitment.commit(to: try SecretBytes(copying: nonce))
    }

    /// A payload with chosen field values (Spec 2.1); the transfer ID is derived from them.
    package static func payload(expiry: UInt32, commitment: [UInt8], senderPublicKey: [UInt8],
                                rendezvous: [UInt8]) throws(HandoffError) -> SessionPayload {
        guard commitment.count == SessionPayload.commitmentByteCount else { throw .malformed(.commitment) }
        guard let key = X25519PublicKey(bytes: senderPublicKey) else { throw .malformed(.publicKey) }
        return SessionPayload(intent: .sendAccount, expiry: expiry, commitment: commitment, senderPublicKey: key,
                              rendezvous: try RendezvousToken(bytes: rendezvous))
    }

    /// `TH0` of a payload (Spec 4.1), as the transcript computes it.
    package static func transcriptHash(_ payload: SessionPayload) -> [UInt8] { Transcript(payload: payload).hash }

    /// The wire bytes of a frame with these fields; the body is not checked (Spec 3.1).
    package static func frameBytes(type: MessageType, transferID: TransferID, sequence: UInt32, body: [UInt8]) -> [UInt8] {
        Frame(type: type, transferID: transferID, sequence: sequence, body: body).bytes
    }

    /// The header of a frame whose body has `bodyLength` bytes (Spec 3.1).
    package static func frameHeader(type: MessageType, transferID: TransferID, sequence: UInt32, bodyLength: Int) -> [UInt8] {
        Frame(type: type, transferID: transferID, sequence: sequence, body: [UInt8](repeating: 0, count: bodyLength)).header
    }

    /// The offer plaintext of `account` (Spec 3.4).
    package static func offerPlaintext(_ account: AccountMetadata) -> [UInt8] { AccountMetadataCodec.encode(account) }

    /// The offer padding of a record (Spec 3.4): `u16 n | record | zeros` to a multiple of 256 bytes.
    package static func paddedOfferRecord(_ record: [UInt8]) -> [UInt8] {
        Padding.pad(record, blockByteCount: AccountMetadataCodec.blockByteCount)
    }

    /// The record of a padded offer plaintext (Spec 3.4), before it is parsed.
    ///
    /// - Throws: `malformed.padding`.
    package static func unpaddedOfferRecord(_ plaintext: [UInt8]) throws(HandoffError) -> [UInt8] {
        Array(try Padding.unpad(plaintext, blockByteCount: AccountMetadataCodec.blockByteCount))
    }

    /// Strictly decodes an offer plaintext (Spec 3.4).
    ///
    /// - Throws: the ``HandoffError/malformed(_:)`` cases of Spec 3.4 and 3.7.
    package static func decodeOfferPlaintext(_ plaintext: [UInt8]) throws(HandoffError) -> AccountMetadata {
        try AccountMetadataCodec.decode(plaintext)
    }

    /// The credential plaintext of `password` (Spec 3.5).
    ///
    /// - Throws: `malformed.credential` for an empty or too long password.
    package static func credentialPlaintext(_ password: [UInt8]) throws(HandoffError) -> [UInt8] {
        try CredentialPlaintext.pad(SecretBytes(copying: password)).revealedBytes()
    }

    /// Strictly decodes a credential plaintext (Spec 3.5).
    ///
    /// - Throws: `malformed.credential`, `malformed.padding`.
    package static func decodeCredentialPlaintext(_ plaintext: [UInt8]) throws(HandoffError) -> [UInt8] {
        try CredentialPlaintext.unpad(SecretBytes(copying: plaintext)).revealedBytes()
    }

    /// Checks one account string against Spec 3.7 as the given field.
    ///
    /// - Throws: `malformed.<field>`.
    package static func validateAccountText(_ value: String, field: HandoffError.Field) throws(HandoffError) {
        let kind: AccountText.Kind
        switch field {
        case .displayName: kind = .displayName
        case .emailAddress: kind = .emailAddress
        case .username: kind = .username
        case .imapHost: kind = .imapHost
        default: throw .malformed(field)
        }
        try AccountText.validate(value, as: kind)
    }
}
