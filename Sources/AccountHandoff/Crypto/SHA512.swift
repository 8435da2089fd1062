internal import CSodium

/// Incremental SHA-512 (FIPS 180-4) through libsodium's `crypto_hash_sha512`: the hash of the
/// CPace suite CPACE-RISTR255-SHA512 (Spec 12.6). Secret parts (the password, `K`) are fed
/// straight from guarded memory, and the state is wiped when the hasher is released, so no
/// copy of them outlives the hash.
package final class SHA512 {
    /// Digest length in bytes.
    package static let byteCount = 64
    /// The input block size `s_in_bytes` of the CPace draft: 128 bytes for SHA-512.
    static let blockByteCount = 128

    private var state = crypto_hash_sha512_state()

    /// A hasher with nothing absorbed yet.
    init() {
        Sodium.ensureInitialised()
        crypto_hash_sha512_init(&state)
    }

    deinit { sodium_memzero(&state, MemoryLayout<crypto_hash_sha512_state>.size) }

    /// Absorbs public bytes.
    func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Absorbs bytes where they lie (guarded memory included), without copying them.
    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        crypto_hash_sha512_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// Writes the digest into the first 64 bytes of `output` (guarded memory of the caller).
    /// The hasher must not be used afterwards.
    func finalize(into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= Self.byteCount, "SHA-512 output buffer too small")
        _ = crypto_hash_sha512_final(&state, output.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    /// The digest of public data, in an array.
    func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Self.byteCount)
        digest.withUnsafeMutableBytes { finalize(into: $0) }
        return digest
    }

    /// The digest of the concatenation of public `parts`.
    package static func hash(_ parts: [UInt8]...) -> [UInt8] {
        let hasher = SHA512()
        for part in parts { hasher.update(part) }
        return hasher.finalize()
    }
}
