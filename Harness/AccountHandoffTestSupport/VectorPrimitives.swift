import AccountHandoff

/// The protocol's primitives and codecs on plain arrays, for test-vector generation, the
/// adversarial suite and verification tools (Spec sections 2-4), built on the library's
/// `package` entry points (the primitives it seals and derives with, its codecs).
///
/// - Warning: These functions take and return secrets as plain arrays so vectors can print
///   them; nothing here is for secrets that matter.
package enum VectorPrimitives {
    /// `SHA-256(concatenation of parts)`.
    package static func sha256(_ parts: [[UInt8]]) -> [UInt8] { SHA256.hash(parts: parts) }

    /// `HMAC-SHA256(key, message)`.
    package static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let mac = key.withUnsafeBytes { HMACSHA256(keyBytes: $0) }
        mac.update(message)
        return block { mac.finalize(into: $0) }
    }

    /// `HKDF-Extract(salt, IKM)` with `IKM` the concatenation of `inputKeyMaterial`.
    package static func hkdfExtract(salt: [UInt8], inputKeyMaterial: [[UInt8]]) -> [UInt8] {
        let material = inputKeyMaterial.flatMap { $0 }
        return salt.withUnsafeBytes { salt in
            material.withUnsafeBytes { material in block { HKDF.extract(salt: salt, inputKeyMaterial: [material], into: $0) } }
        }
    }

    /// `HKDF-Expand(PRK, info, length)`, its temporary in an arena of its own.
    ///
    /// - Throws: ``HandoffError/keyDerivationFailed`` above 255 x 32 bytes (Spec 4.2);
    ///   ``HandoffError/secureMemoryUnavailable(_:)``.
    package static func hkdfExpand(pseudorandomKey: [UInt8], info: [UInt8], length: Int) throws(HandoffError) -> [UInt8] {
        guard length >= 0, length <= HKDF.maximumOutputLength else { throw .keyDerivationFailed }
        let arena = try SessionArena(byteCount: HMACSHA256.byteCount)
        var output = [UInt8](repeating: 0, count: length)
        pseudorandomKey.withUnsafeBytes { prk in
            output.withUnsafeMutableBytes { HKDF.expand(pseudorandomKey: prk, info: info, into: $0, arena: arena) }
        }
        return output
    }

    /// The X25519 public key of a 32-byte private key.
    package static func x25519PublicKey(privateKey: [UInt8]) throws(HandoffError) -> [UInt8] {
        guard privateKey.count == X25519PublicKey.byteCount else { throw .malformed(.publicKey) }
        return privateKey.withUnsafeBytes { X25519.publicKey(for: $0) }.bytes
    }

    /// `X25519(privateKey, peer)`.
    ///
    /// - Throws: ``HandoffError/lowOrderPublicKey`` for an all-zero result.
    package static func x25519(privateKey: [UInt8], peer: [UInt8]) throws(HandoffError) -> [UInt8] {
        guard privateKey.count == X25519PublicKey.byteCount, peer.count == X25519PublicKey.byteCount else {
            throw .malformed(.publicKey)
        }
        var shared = [UInt8](repeating: 0, count: X25519PublicKey.byteCount)
        try privateKey.withUnsafeBytes { scalar in
            peer.withUnsafeBytes { peer in
                shared.withUnsafeMutableBytes { output in
                    Result { () throws(HandoffError) in try X25519.sharedSecret(privateKey: scalar, peer: peer, into: output) }
                }
            }
        }.get()
        return shared
    }

    /// ChaCha20-Poly1305 IETF seal: `ciphertext | tag`.
    ///
    /// - Throws: ``HandoffError/authenticationFailed`` for a key or nonce of the wrong size.
    package static func seal(key: [UInt8], nonce: [UInt8], plaintext: [UInt8], additionalData: [UInt8]) throws(HandoffError) -> [UInt8] {
        guard key.count == ChaCha20Poly1305.keyByteCount, nonce.count == ChaCha20Poly1305.nonceByteCount else {
            throw .authenticationFailed
        }
        var sealed = [UInt8](repeating: 0, count: plaintext.count + ChaCha20Poly1305.tagByteCount)
        key.withUnsafeBytes { key in
            nonce.withUnsafeBytes { nonce in
                plaintext.withUnsafeBytes { plaintext in
                    additionalData.withUnsafeBytes { ad in
                        sealed.withUnsafeMutableBytes {
                            ChaCha20Poly1305.seal(key: key, nonce: nonce, plaintext: plaintext, additionalData: ad, into: $0)
                        }
                    }
                }
            }
        }
        return sealed
    }

    /// ChaCha20-Poly1305 IETF open.
    ///
    /// - Throws: ``HandoffError/authenticationFailed``.
    package static func open(key: [UInt8], nonce: [UInt8], sealed: [UInt8], additionalData: [UInt8]) throws(HandoffError) -> [UInt8] {
        guard sealed.count >= ChaCha20Poly1305.tagByteCount else { throw .authenticationFailed }
        var opened = [UInt8](repeating: 0, count: sealed.count - ChaCha20Poly1305.tagByteCount)
        try key.withUnsafeBytes { key in
            nonce.withUnsafeBytes { nonce in
                sealed.withUnsafeBytes { sealed in
                    additionalData.withUnsafeBytes { ad in
                        opened.withUnsafeMutableBytes { output in
                            Result { () throws(HandoffError) in
                                try ChaCha20Poly1305.open(key: key, nonce: nonce, sealed: sealed, additionalData: ad, into: output)
                            }
                        }
                    }
                }
            }
        }.get()
        return opened
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
    package static func commitment(nonce: [UInt8]) -> [UInt8] {
        nonce.withUnsafeBytes { Commitment.digest(of: $0) }.bytes
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

    /// The offer plaintext of `account` with the sending device's gate declaration (Spec 3.4).
    package static func offerPlaintext(_ account: AccountMetadata, senderGate: GateDeclaration = .asks) -> [UInt8] {
        AccountMetadataCodec.encode(account, senderGate: senderGate)
    }

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
        try AccountMetadataCodec.decode(plaintext).account
    }

    /// Strictly decodes an offer plaintext (Spec 3.4): the account and the `senderGate`.
    ///
    /// - Throws: the ``HandoffError/malformed(_:)`` cases of Spec 3.4 and 3.7.
    package static func decodeOffer(_ plaintext: [UInt8]) throws(HandoffError) -> (account: AccountMetadata, senderGate: GateDeclaration) {
        let offered = try AccountMetadataCodec.decode(plaintext)
        return (offered.account, offered.senderGate)
    }

    /// The credential plaintext of `password` (Spec 3.5).
    ///
    /// - Throws: `malformed.credential` for an empty or too long password.
    package static func credentialPlaintext(_ password: [UInt8]) throws(HandoffError) -> [UInt8] {
        guard CredentialPlaintext.isValidLength(password.count) else { throw .malformed(.credential) }
        var padded = [UInt8](repeating: 0, count: CredentialPlaintext.paddedByteCount)
        password.withUnsafeBytes { source in padded.withUnsafeMutableBytes { CredentialPlaintext.pad(source, into: $0) } }
        return padded
    }

    /// Strictly decodes a credential plaintext (Spec 3.5).
    ///
    /// - Throws: `malformed.credential`, `malformed.padding`.
    package static func decodeCredentialPlaintext(_ plaintext: [UInt8]) throws(HandoffError) -> [UInt8] {
        try plaintext.withUnsafeBytes { padded in
            Result { () throws(HandoffError) in Array(try CredentialPlaintext.credential(in: padded)) }
        }.get()
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

    /// One HMAC block, written by `write`.
    private static func block(_ write: (UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: HMACSHA256.byteCount)
        output.withUnsafeMutableBytes(write)
        return output
    }
}
