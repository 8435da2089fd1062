/// What both devices of the typed mode present to a transit relay (Spec 12.8), derived from
/// the nameplate alone, since the code carries no relay:
///
/// ```
/// relayPRK   = HKDF-Extract(salt = "AH4 typed relay", IKM = "4" | nameplate)
/// relayToken = HKDF-Expand(relayPRK, "AH4 typed relay token", 32)
/// senderSide = HKDF-Expand(relayPRK, "AH4 typed relay sender side", 8)
/// ```
///
/// Everything here is public: anyone can compute it for each of the 1000 nameplates. The
/// relay handshake line is that of Spec 11.7 with these values; the fixed sender side keeps
/// two senders with one nameplate from being paired with each other.
package struct TypedRelayKeys: Hashable, Sendable {
    /// The salt of the extraction.
    static let salt = Array("AH4 typed relay".utf8)
    /// The version, as the ASCII digit that starts `IKM`.
    static let versionDigit = Array("4".utf8)
    /// The label of ``relayToken``.
    static let relayTokenLabel = Array("AH4 typed relay token".utf8)
    /// The label of ``senderSide``.
    static let senderSideLabel = Array("AH4 typed relay sender side".utf8)

    /// What both devices present to the relay (32 bytes).
    package let relayToken: [UInt8]
    /// The sending device's side in the relay handshake (8 bytes).
    package let senderSide: [UInt8]

    /// The relay token and sender side of a nameplate. Nothing here is secret: `relayPRK` is
    /// an ordinary array, and the arena only gives HKDF-Expand its partial last block.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)`` (that block is guarded memory).
    package init(nameplate: TypedCode.Nameplate) throws(HandoffError) {
        let arena = try SessionArena(byteCount: HMACSHA256.byteCount)
        defer { arena.end() }
        let inputKeyMaterial = Self.versionDigit + nameplate.bytes
        var prk = [UInt8](repeating: 0, count: HMACSHA256.byteCount)
        var token = [UInt8](repeating: 0, count: TransportKeys.relayTokenByteCount)
        var side = [UInt8](repeating: 0, count: TransportKeys.senderSideByteCount)
        Self.salt.withUnsafeBytes { salt in
            inputKeyMaterial.withUnsafeBytes { material in
                prk.withUnsafeMutableBytes { HKDF.extract(salt: salt, inputKeyMaterial: [material], into: $0) }
            }
        }
        prk.withUnsafeBytes { prk in
            token.withUnsafeMutableBytes { HKDF.expand(pseudorandomKey: prk, info: Self.relayTokenLabel, into: $0, arena: arena) }
            side.withUnsafeMutableBytes { HKDF.expand(pseudorandomKey: prk, info: Self.senderSideLabel, into: $0, arena: arena) }
        }
        (relayToken, senderSide) = (token, side)
    }
}
