/// The keys of the reference transport (Spec 11.3), derived from the QR alone, so both devices
/// hold them before any byte flows:
///
/// ```
/// transportPRK = HKDF-Extract(salt = TH0, IKM = commitment)
/// admissionKey = HKDF-Expand(transportPRK, "AH4 admission", 32)
/// sessionHint  = HKDF-Expand(transportPRK, "AH4 session hint", 8)
/// relayToken   = HKDF-Expand(transportPRK, "AH4 relay token", 32)
/// senderSide   = HKDF-Expand(transportPRK, "AH4 relay sender side", 8)
/// ```
///
/// Only someone who saw the QR knows the commitment, so only they can derive these; none of
/// them enters a session key. The admission tag (Spec 11.4) is computed here, where the HMAC
/// lives: `first 16 bytes of HMAC(admissionKey, "AH4 admission" | sessionHint | challengeNonce)`.
public struct TransportKeys: Sendable {
    /// Bytes of ``sessionHint``.
    public static let sessionHintByteCount = 8
    /// Bytes of ``relayToken``.
    public static let relayTokenByteCount = 32
    /// Bytes of ``senderSide``.
    public static let senderSideByteCount = 8
    /// Bytes of the admission key.
    public static let admissionKeyByteCount = 32
    /// Bytes of a challenge nonce (Spec 11.4).
    public static let challengeNonceByteCount = 16
    /// Bytes of an admission tag: the first half of an HMAC-SHA256 (Spec 11.4).
    public static let admissionTagByteCount = 16

    static let admissionLabel = Array("AH4 admission".utf8)
    static let sessionHintLabel = Array("AH4 session hint".utf8)
    static let relayTokenLabel = Array("AH4 relay token".utf8)
    static let senderSideLabel = Array("AH4 relay sender side".utf8)

    /// The key of the admission HMAC; secret (only those who saw the QR can derive it).
    ///
    /// - Warning: It stays valid for the session's lifetime; do not wipe it while a listener
    ///   or connector uses these keys.
    public let admissionKey: SecretBytes
    /// Names the session in the admission challenge (public: the sender sends it first).
    public let sessionHint: [UInt8]
    /// What both devices present to a relay (public to the relay).
    public let relayToken: [UInt8]
    /// The sender's side in the relay handshake (public to the relay).
    public let senderSide: [UInt8]

    /// Guarded memory for the derivation: the commitment, `transportPRK` and a partial HKDF
    /// block as temporaries, the admission key kept.
    private static let arenaByteCount = 4 * HMACSHA256.byteCount

    /// Derives the transport keys of a QR payload (Spec 11.3). The admission key gets guarded
    /// pages of its own, in which the commitment and `transportPRK` are temporaries.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)`` when no guarded memory can be had.
    public init(payload: SessionPayload) throws(HandoffError) {
        let arena = try SessionArena(byteCount: Self.arenaByteCount)
        defer { arena.end() }
        let transcriptHash = Transcript(payload: payload).digest
        var hint = [UInt8](repeating: 0, count: Self.sessionHintByteCount)
        var token = [UInt8](repeating: 0, count: Self.relayTokenByteCount)
        var side = [UInt8](repeating: 0, count: Self.senderSideByteCount)
        let key = arena.keep(Self.admissionKeyByteCount)
        arena.withScratch(byteCount: SessionPayload.commitmentByteCount) { commitment in
            payload.commitmentBytes.withUnsafeBytes { commitment.copyMemory(from: $0) }
            arena.withScratch(byteCount: HMACSHA256.byteCount) { prk in
                HKDF.extract(salt: transcriptHash, UnsafeRawBufferPointer(commitment), UnsafeRawBufferPointer(start: nil, count: 0),
                             into: prk)
                let prk = UnsafeRawBufferPointer(prk)
                key.withUnsafeMutableBytes { HKDF.expand(pseudorandomKey: prk, info: Self.admissionLabel, intoBlock: $0) }
                // The public values: hint and side are a partial block, whose temporary comes from the arena.
                hint.withUnsafeMutableBytes { HKDF.expand(pseudorandomKey: prk, info: Self.sessionHintLabel, into: $0, arena: arena) }
                token.withUnsafeMutableBytes { HKDF.expand(pseudorandomKey: prk, info: Self.relayTokenLabel, intoBlock: $0) }
                side.withUnsafeMutableBytes { HKDF.expand(pseudorandomKey: prk, info: Self.senderSideLabel, into: $0, arena: arena) }
            }
        }
        admissionKey = arena.handOver(key)
        (sessionHint, relayToken, senderSide) = (hint, token, side)
    }

    /// The admission tag for a challenge nonce: the first 16 bytes of
    /// `HMAC(admissionKey, "AH4 admission" | sessionHint | challengeNonce)` (Spec 11.4).
    ///
    /// - Parameter challengeNonce: the 16 bytes of the challenge (any length is hashed as given).
    public func admissionTag(challengeNonce: [UInt8]) -> [UInt8] {
        let mac = admissionKey.withUnsafeBytes { HMACSHA256(keyBytes: $0) }
        mac.update(Self.admissionLabel)
        mac.update(sessionHint)
        mac.update(challengeNonce)
        var full = [UInt8](repeating: 0, count: HMACSHA256.byteCount)
        full.withUnsafeMutableBytes { mac.finalize(into: $0) }
        return Array(full.prefix(Self.admissionTagByteCount))
    }

    /// Whether `tag` is the admission tag of `challengeNonce`, compared in constant time.
    public func isAdmissionTag(_ tag: [UInt8], challengeNonce: [UInt8]) -> Bool {
        ConstantTime.equal(tag, admissionTag(challengeNonce: challengeNonce))
    }
}

extension TransportKeys: CustomStringConvertible {
    /// The session hint only; the admission key is never shown.
    public var description: String { "TransportKeys(sessionHint \(Hex.encode(sessionHint)))" }
}
