/// HKDF-SHA256 (RFC 5869) built on libsodium's HMAC-SHA256; libsodium 1.0.18 has no HKDF API.
/// Every secret input and output is read and written where it lies, in guarded memory.
package enum HKDF {
    /// The largest output RFC 5869 allows for SHA-256: 255 blocks of 32 bytes.
    package static let maximumOutputLength = 255 * HMACSHA256.byteCount

    /// HKDF-Extract: `PRK = HMAC(salt, IKM)` written into `output` (32 bytes of guarded
    /// memory), with `IKM` the concatenation of `inputKeyMaterial`. An empty salt means 32
    /// zero bytes (RFC 5869 section 2.2).
    package static func extract(salt: UnsafeRawBufferPointer, inputKeyMaterial: [UnsafeRawBufferPointer],
                                into output: UnsafeMutableRawBufferPointer) {
        let zeros = [UInt8](repeating: 0, count: HMACSHA256.byteCount)
        let mac = salt.isEmpty ? zeros.withUnsafeBytes { HMACSHA256(keyBytes: $0) } : HMACSHA256(keyBytes: salt)
        for part in inputKeyMaterial { mac.update(part) }
        mac.finalize(into: output)
    }

    /// HKDF-Extract with a transcript hash as the salt and `first | second` as `IKM`: the
    /// protocol's extractions (Spec 4.2, 4.4, 11.3), the PRK written into `output` (32 bytes of
    /// guarded memory) and every part read where it lies.
    static func extract(salt: SHA256.Digest, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer,
                        into output: UnsafeMutableRawBufferPointer) {
        salt.withUnsafeBytes { HMACSHA256.tag(key: $0, first, second, into: output) }
    }

    /// HKDF-Expand of exactly one block: `T(1) = HMAC(PRK, info || 1)`, written into `output`
    /// (32 bytes of guarded memory); what every 32-byte key of the protocol is.
    static func expand(pseudorandomKey: UnsafeRawBufferPointer, info: [UInt8], intoBlock output: UnsafeMutableRawBufferPointer) {
        precondition(output.count == HMACSHA256.byteCount, "one HKDF block")
        info.withUnsafeBytes { info in
            withUnsafeBytes(of: UInt8(1)) { HMACSHA256.tag(key: pseudorandomKey, info, $0, into: output) }
        }
    }

    /// HKDF-Expand into `output` (its count is the length): the first `length` bytes of
    /// `T(1) || T(2) || ...`, where `T(i) = HMAC(PRK, T(i-1) || info || i)` and `T(0)` is empty.
    ///
    /// Full blocks are written straight into the output and read back from it as `T(i-1)`,
    /// so only a final partial block needs a temporary, taken from `arena`: every byte stays
    /// in guarded memory.
    ///
    /// - Precondition: the length is at most ``maximumOutputLength`` (a longer one is
    ///   `keyDerivationFailed`, Spec 4.2, for whoever takes lengths from outside).
    package static func expand(pseudorandomKey: UnsafeRawBufferPointer, info: [UInt8],
                               into out: UnsafeMutableRawBufferPointer, arena: SessionArena) {
        let length = out.count
        precondition(length <= maximumOutputLength, "HKDF-Expand of more than 255 blocks")
        let blockSize = HMACSHA256.byteCount
        var written = 0
        var counter: UInt8 = 1
        func writeNextBlock(into block: UnsafeMutableRawBufferPointer) {
            let previous = written > 0 ? UnsafeRawBufferPointer(rebasing: out[(written - blockSize)..<written])
                : UnsafeRawBufferPointer(start: nil, count: 0)
            info.withUnsafeBytes { info in
                withUnsafeBytes(of: counter) { HMACSHA256.tag(key: pseudorandomKey, previous, info, $0, into: block) }
            }
            counter &+= 1
        }
        while length - written >= blockSize {
            writeNextBlock(into: UnsafeMutableRawBufferPointer(rebasing: out[written..<(written + blockSize)]))
            written += blockSize
        }
        guard written < length else { return }
        arena.withScratch(byteCount: blockSize) { block in
            writeNextBlock(into: block)
            out.baseAddress!.advanced(by: written).copyMemory(from: block.baseAddress!, byteCount: length - written)
        }
    }
}
