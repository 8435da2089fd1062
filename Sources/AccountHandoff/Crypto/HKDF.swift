/// HKDF-SHA256 (RFC 5869) built on libsodium's HMAC-SHA256; libsodium 1.0.18 has no HKDF API.
enum HKDF {
    /// The largest output RFC 5869 allows for SHA-256: 255 blocks of 32 bytes.
    static let maximumOutputLength = 255 * HMACSHA256.byteCount

    /// HKDF-Extract: `PRK = HMAC(salt, IKM)` with `IKM` the concatenation of `inputKeyMaterial`.
    /// An empty salt means 32 zero bytes (RFC 5869 section 2.2).
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    static func extract(salt: [UInt8], inputKeyMaterial: [SecretBytes]) throws(HandoffError) -> SecretBytes {
        let effectiveSalt = salt.isEmpty ? [UInt8](repeating: 0, count: HMACSHA256.byteCount) : salt
        let mac = effectiveSalt.withUnsafeBytes { HMACSHA256(keyBytes: $0) }
        for part in inputKeyMaterial { mac.update(part) }
        return try mac.finalize()
    }

    /// HKDF-Extract with a transcript hash as the salt and `first | second` as `IKM`: the
    /// protocol's two extractions (Spec 4.2, 4.4), without collecting the parts in an array.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    static func extract(salt: SHA256.Digest, _ first: SecretBytes, _ second: SecretBytes) throws(HandoffError) -> SecretBytes {
        let mac = salt.withUnsafeBytes { HMACSHA256(keyBytes: $0) }
        mac.update(first)
        mac.update(second)
        return try mac.finalize()
    }

    /// HKDF-Expand: the first `length` bytes of `T(1) || T(2) || ...`, where
    /// `T(i) = HMAC(PRK, T(i-1) || info || i)` and `T(0)` is empty.
    ///
    /// Full blocks are written straight into the output and read back from it as `T(i-1)`,
    /// so only a final partial block needs a scratch buffer: every byte stays in guarded memory.
    ///
    /// - Throws: ``HandoffError/keyDerivationFailed`` when `length` exceeds 255 x 32 bytes;
    ///   ``HandoffError/secureMemoryUnavailable(_:)``.
    static func expand(pseudorandomKey: SecretBytes, info: [UInt8], length: Int) throws(HandoffError) -> SecretBytes {
        guard length >= 0, length <= maximumOutputLength else { throw .keyDerivationFailed }
        let blockSize = HMACSHA256.byteCount
        let output = try SecretBytes(zeroedCount: length)
        let partial = length % blockSize == 0 ? nil : try SecretBytes(zeroedCount: blockSize)
        defer { partial?.wipe() }
        output.withUnsafeMutableBytes { out in
            var written = 0
            var counter: UInt8 = 1
            while written < length {
                let mac = HMACSHA256(key: pseudorandomKey)
                if written > 0 { mac.update(UnsafeRawBufferPointer(rebasing: out[(written - blockSize)..<written])) }
                mac.update(info)
                withUnsafeBytes(of: counter) { mac.update($0) }
                if length - written >= blockSize {
                    mac.finalize(into: UnsafeMutableRawBufferPointer(rebasing: out[written..<(written + blockSize)]))
                    written += blockSize
                } else {
                    partial!.withUnsafeMutableBytes { block in
                        mac.finalize(into: block)
                        out.baseAddress!.advanced(by: written).copyMemory(from: block.baseAddress!, byteCount: length - written)
                    }
                    written = length
                }
                counter &+= 1
            }
        }
        return output
    }
}
