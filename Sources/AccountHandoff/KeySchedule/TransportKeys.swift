/// The keys of the reference transport (Spec 11.3), derived from the QR alone, so both devices
/// hold them before any byte flows:
///
/// ```
/// transportPRK = HKDF-Extract(salt = TH0, IKM = commitment)
/// admissionKey = HKDF-Expand(transportPRK, "AH3 admission", 32)
/// sessionHint  = HKDF-Expand(transportPRK, "AH3 session hint", 8)
/// relayToken   = HKDF-Expand(transportPRK, "AH3 relay token", 32)
/// senderSide   = HKDF-Expand(transportPRK, "AH3 relay sender side", 8)
/// ```
///
/// Only someone who saw the QR knows the commitment, so only they can derive these; none of
/// them enters a session key. The admission tag (Spec 11.4) is computed here, where the HMAC
/// lives: `first 16 bytes of HMAC(admissionKey, "AH3 admission" | sessionHint | challengeNonce)`.
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

    static let admissionLabel = Array("AH3 admission".utf8)
    static let sessionHintLabel = Array("AH3 session hint".utf8)
    static let relayTokenLabel = Array("AH3 relay token".utf8)
    static let senderSideLabel = Array("AH3 relay sender side".utf8)

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

    /// Derives the transport keys of a QR payload (Spec 11.3).
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    public init(payload: SessionPayload) throws(HandoffError) {
        let transcriptHash = Transcript(payload: payload).hash
        let commitment = try SecretBytes(copying: payload.commitmentBytes)
        defer { commitment.wipe() }
        let prk = try HKDF.extract(salt: transcriptHash, inputKeyMaterial: [commitment])
        defer { prk.wipe() }
        admissionKey = try HKDF.expand(pseudorandomKey: prk, info: Self.admissionLabel, length: Self.admissionKeyByteCount)
        sessionHint = try Self.expandPublic(prk, Self.sessionHintLabel, Self.sessionHintByteCount)
        relayToken = try Self.expandPublic(prk, Self.relayTokenLabel, Self.relayTokenByteCount)
        senderSide = try Self.expandPublic(prk, Self.senderSideLabel, Self.senderSideByteCount)
    }

    /// `HKDF-Expand(prk, label, count)` of a value that is public, in an array (the guarded
    /// output is wiped); the typed mode's relay keys use it too (Spec 12.8).
    static func expandPublic(_ prk: SecretBytes, _ label: [UInt8], _ count: Int) throws(HandoffError) -> [UInt8] {
        let value = try HKDF.expand(pseudorandomKey: prk, info: label, length: count)
        defer { value.wipe() }
        return value.revealedBytes()
    }

    /// The admission tag for a challenge nonce: the first 16 bytes of
    /// `HMAC(admissionKey, "AH3 admission" | sessionHint | challengeNonce)` (Spec 11.4).
    ///
    /// - Parameter challengeNonce: the 16 bytes of the challenge (any length is hashed as given).
    public func admissionTag(challengeNonce: [UInt8]) -> [UInt8] {
        let mac = HMACSHA256(key: admissionKey)
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
