/// HKDF-SHA256 (RFC 5869) built on libsodium's HMAC-SHA256; libsodium 1.0.18 has no HKDF API.
enum HKDF {
    /// The largest output RFC 5869 allows for SHA-256: 255 blocks of 32 bytes.
    static let maximumOutputLength = 255 * HMACSHA256.byteCount

    /// HKDF-Extract: `PRK = HMAC(salt, IKM)` with `IKM` the concatenation of `inputKeyMaterial`.
    /// An empty salt means 32 zero bytes (RFC 5869 section 2.2).
    static func extract(salt: [UInt8], inputKeyMaterial: [SecretBytes]) -> SecretBytes {
        let effectiveSalt = salt.isEmpty ? [UInt8](repeating: 0, count: HMACSHA256.byteCount) : salt
        let mac = effectiveSalt.withUnsafeBytes { HMACSHA256(keyBytes: $0) }
        for part in inputKeyMaterial { mac.update(part) }
        return mac.finalize()
    }

    /// HKDF-Expand: the first `length` bytes of `T(1) || T(2) || ...`, where
    /// `T(i) = HMAC(PRK, T(i-1) || info || i)` and `T(0)` is empty.
    ///
    /// - Throws: ``HandoffError/keyDerivationFailed`` when `length` exceeds 255 x 32 bytes.
    static func expand(pseudorandomKey: SecretBytes, info: [UInt8], length: Int) throws(HandoffError) -> SecretBytes {
        guard length >= 0, length <= maximumOutputLength else { throw .keyDerivationFailed }
        let output = SecretBytes(zeroedCount: length)
        var previous: SecretBytes?
        var written = 0
        var counter: UInt8 = 1
        while written < length {
            let mac = HMACSHA256(key: pseudorandomKey)
            if let previous { mac.update(previous) }
            mac.update(info)
            mac.update([counter])
            let block = mac.finalize()
            previous?.wipe()
            let take = min(HMACSHA256.byteCount, length - written)
            output.withUnsafeMutableBytes { destination in
                block.withUnsafeBytes { source in
                    destination.baseAddress!.advanced(by: written).copyMemory(from: source.baseAddress!, byteCount: take)
                }
            }
            written += take
            previous = block
            counter &+= 1
        }
        previous?.wipe()
        return output
    }
}
