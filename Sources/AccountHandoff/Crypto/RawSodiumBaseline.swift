internal import CSodium

/// The libsodium work of one complete session, done directly on stack buffers with no
/// guarded memory, framing or state machine: the baseline that `handoff bench` divides by.
///
/// Per session the protocol performs 4 X25519 scalar multiplications (two key generations,
/// two DH), 14 HMAC-SHA256 (per side: HKDF-Extract, five HKDF-Expand blocks, one hello tag),
/// 14 short SHA-256 (transcript hashes), and 4 ChaCha20-Poly1305 seals and opens of 256, 0,
/// 1024 and 1 plaintext bytes.
package enum RawSodiumBaseline {
    /// Runs the primitives of one session once.
    package static func runOneSession() {
        Sodium.ensureInitialised()
        var scalar = [UInt8](repeating: 7, count: 32)
        var point = [UInt8](repeating: 0, count: 32)
        var shared = [UInt8](repeating: 0, count: 32)
        for _ in 0..<2 {
            randombytes_buf(&scalar, 32)
            crypto_scalarmult_base(&point, scalar)
            _ = crypto_scalarmult(&shared, scalar, point)
        }
        var tag = [UInt8](repeating: 0, count: 32)
        for _ in 0..<14 {
            crypto_auth_hmacsha256(&tag, shared, UInt64(shared.count), shared)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        for _ in 0..<14 {
            crypto_hash_sha256(&digest, tag, UInt64(tag.count))
        }
        let nonce = [UInt8](repeating: 0, count: 12)
        for size in [256, 0, 1024, 1] {
            let message = [UInt8](repeating: 0x61, count: size)
            var sealed = [UInt8](repeating: 0, count: size + 16)
            var sealedLength: UInt64 = 0
            _ = crypto_aead_chacha20poly1305_ietf_encrypt(&sealed, &sealedLength, message, UInt64(size), digest, 32, nil, nonce, tag)
            var opened = [UInt8](repeating: 0, count: size + 1)
            var openedLength: UInt64 = 0
            _ = crypto_aead_chacha20poly1305_ietf_decrypt(&opened, &openedLength, nil, sealed, sealedLength, digest, 32, nonce, tag)
        }
    }
}
