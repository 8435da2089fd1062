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
    /// protocol's two extractions (Spec 4.2, 4.4), the PRK written into `output` (32 bytes of
    /// guarded memory) and every part read where it lies.
    static func extract(salt: SHA256.Digest, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer,
                        into output: UnsafeMutableRawBufferPointer) {
        let mac = salt.withUnsafeBytes { HMACSHA256(keyBytes: $0) }
        mac.update(first)
        mac.update(second)
        mac.finalize(into: output)
    }

    /// HKDF-Expand: the first `length` bytes of `T(1) || T(2) || ...`, where
    /// `T(i) = HMAC(PRK, T(i-1) || info || i)` and `T(0)` is empty.
    ///
    /// - Throws: ``HandoffError/keyDerivationFailed`` when `length` exceeds 255 x 32 bytes;
    ///   ``HandoffError/secureMemoryUnavailable(_:)``.
    static func expand(pseudorandomKey: SecretBytes, info: [UInt8], length: Int) throws(HandoffError) -> SecretBytes {
        try pseudorandomKey.withUnsafeBytes { (prk) throws(HandoffError) in
            try expand(pseudorandomKey: prk, info: info, length: length)
        }
    }

    /// ``expand(pseudorandomKey:info:length:)-(SecretBytes,_,_)`` with the PRK read from a
    /// guarded buffer.
    static func expand(pseudorandomKey: UnsafeRawBufferPointer, info: [UInt8], length: Int) throws(HandoffError) -> SecretBytes {
        guard length >= 0, length <= maximumOutputLength else { throw .keyDerivationFailed }
        let output = try SecretBytes(zeroedCount: length)
        try output.withUnsafeMutableBytes { (out) throws(HandoffError) in
            try expand(pseudorandomKey: pseudorandomKey, info: info, into: out)
        }
        return output
    }

    /// HKDF-Expand into `output` (guarded memory; its count is the length).
    ///
    /// Full blocks are written straight into the output and read back from it as `T(i-1)`,
    /// so only a final partial block needs a scratch buffer: every byte stays in guarded memory.
    ///
    /// - Throws: ``HandoffError/keyDerivationFailed`` when the length exceeds 255 x 32 bytes;
    ///   ``HandoffError/secureMemoryUnavailable(_:)`` (for the scratch block).
    static func expand(pseudorandomKey: UnsafeRawBufferPointer, info: [UInt8],
                       into out: UnsafeMutableRawBufferPointer) throws(HandoffError) {
        let length = out.count
        guard length <= maximumOutputLength else { throw .keyDerivationFailed }
        let blockSize = HMACSHA256.byteCount
        var written = 0
        var counter: UInt8 = 1
        func nextBlock() -> HMACSHA256 {
            let mac = HMACSHA256(keyBytes: pseudorandomKey)
            if written > 0 { mac.update(UnsafeRawBufferPointer(rebasing: out[(written - blockSize)..<written])) }
            mac.update(info)
            withUnsafeBytes(of: counter) { mac.update($0) }
            counter &+= 1
            return mac
        }
        while length - written >= blockSize {
            nextBlock().finalize(into: UnsafeMutableRawBufferPointer(rebasing: out[written..<(written + blockSize)]))
            written += blockSize
        }
        guard written < length else { return }
        try SecretBytes.withTemporary(byteCount: blockSize) { (block) throws(HandoffError) in
            nextBlock().finalize(into: block)
            out.baseAddress!.advanced(by: written).copyMemory(from: block.baseAddress!, byteCount: length - written)
        }
    }
}
