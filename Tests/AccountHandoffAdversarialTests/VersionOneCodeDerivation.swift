import AccountHandoff
import AccountHandoffTestSupport

/// A test-only copy of the version-1 short-code derivation, reimplemented from the old Spec
/// (4.1, 4.2, 4.4 of version 1) on the package's primitives, for ``TwoSessionMITMTests``:
///
/// ```
/// TH0          = SHA-256("AH1 transcript" | qrBinary)
/// HH           = SHA-256(TH0 | receiverPublicKey)
/// PRK          = HKDF-Extract(salt = HH, IKM = shared | challenge)
/// codeMaterial = HKDF-Expand(PRK, "AH1 code", 64)
/// ```
///
/// then the same rejection sampling as today. Every input is either public (the QR, the
/// receiver's key) or known to whoever holds one of the two private keys, which is why a man
/// in the middle that plays the receiver can compute the sender's code offline for any hello
/// key it considers. Here the QR bytes are version 2's and the "challenge" is the first 16
/// bytes of the commitment: the derivation needs only 16 secret-looking QR bytes.
enum VersionOneCodeDerivation {
    /// The version-1 code value (below 10^6).
    static func value(qrBinary: [UInt8], challenge: [UInt8], receiverPublicKey: [UInt8], shared: [UInt8]) throws -> UInt32 {
        let transcript = VectorPrimitives.sha256([Array("AH1 transcript".utf8), qrBinary])
        let handshakeHash = VectorPrimitives.sha256([transcript, receiverPublicKey])
        let prk = VectorPrimitives.hkdfExtract(salt: handshakeHash, inputKeyMaterial: [shared, challenge])
        let material = try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: Array("AH1 code".utf8), length: 64)
        guard let code = VectorPrimitives.shortCode(material: material) else { throw HandoffError.keyDerivationFailed }
        return code.value
    }

    /// The version-1 code of a session, computed by a party holding `privateKey` with the
    /// other party's `peerPublicKey` (both ends get the same value).
    static func value(payload: SessionPayload, receiverPublicKey: [UInt8], privateKey: [UInt8], peerPublicKey: [UInt8]) throws -> UInt32 {
        let shared = try VectorPrimitives.x25519(privateKey: privateKey, peer: peerPublicKey)
        return try value(qrBinary: payload.binary, challenge: Array(payload.commitment.prefix(16)),
                         receiverPublicKey: receiverPublicKey, shared: shared)
    }
}

/// The keys a seeded random source gives each role (Spec 2.1: a sender draws its nonce, then
/// its private key; a receiver draws only its private key).
enum SeededKeys {
    /// The private key a session started with `seed` draws.
    static func privateKey(seed: UInt64, isSender: Bool) -> [UInt8] {
        var stream = [UInt8](repeating: 0, count: 64)
        stream.withUnsafeMutableBytes { InsecureDeterministicRandom(seed: seed).fill($0) }
        return Array(stream[(isSender ? 32 : 0)..<(isSender ? 64 : 32)])
    }
}
