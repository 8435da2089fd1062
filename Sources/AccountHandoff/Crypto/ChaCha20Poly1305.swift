internal import CSodium

/// ChaCha20-Poly1305 IETF (RFC 8439: 256-bit key, 96-bit nonce, 128-bit tag) through libsodium,
/// on buffers where the caller has them: keys in guarded memory, nonce and additional data on
/// the stack, the output in a frame's own bytes or in a session's arena.
package enum ChaCha20Poly1305 {
    /// Key length in bytes.
    package static let keyByteCount = 32
    /// Nonce length in bytes.
    package static let nonceByteCount = 12
    /// Authentication tag length in bytes.
    package static let tagByteCount = 16

    /// Encrypts `plaintext` into `output` (exactly `plaintext.count + tagByteCount` bytes):
    /// `ciphertext || tag`. `output` may start where `plaintext` lies (in place).
    package static func seal(key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer,
                             additionalData: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(key.count == keyByteCount && nonce.count == nonceByteCount, "AEAD key or nonce size")
        precondition(output.count == plaintext.count + tagByteCount, "AEAD output size")
        Sodium.ensureInitialised()
        var outputLength: UInt64 = 0
        _ = crypto_aead_chacha20poly1305_ietf_encrypt(
            output.baseAddress!.assumingMemoryBound(to: UInt8.self), &outputLength,
            plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(plaintext.count),
            additionalData.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(additionalData.count),
            nil, nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
            key.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    /// Verifies `ciphertext || tag` and decrypts it into `output` (exactly
    /// `sealed.count - tagByteCount` bytes, guarded memory of the caller).
    ///
    /// - Throws: ``HandoffError/authenticationFailed`` for any wrong key, nonce, data or tag, or
    ///   a `sealed` shorter than a tag; `output` is all zero then.
    package static func open(key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, sealed: UnsafeRawBufferPointer,
                             additionalData: UnsafeRawBufferPointer,
                             into output: UnsafeMutableRawBufferPointer) throws(HandoffError) {
        guard key.count == keyByteCount, nonce.count == nonceByteCount, sealed.count >= tagByteCount,
              output.count == sealed.count - tagByteCount else { throw .authenticationFailed }
        Sodium.ensureInitialised()
        var plaintextLength: UInt64 = 0
        // libsodium wants an output pointer even for an empty plaintext (the accept).
        var empty: UInt8 = 0
        let status = withUnsafeMutablePointer(to: &empty) { emptyOutput in
            crypto_aead_chacha20poly1305_ietf_decrypt(
                output.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? emptyOutput, &plaintextLength,
                nil,
                sealed.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(sealed.count),
                additionalData.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(additionalData.count),
                nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
                key.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        guard status == 0 else {
            if let base = output.baseAddress { sodium_memzero(base, output.count) }
            throw .authenticationFailed
        }
    }
}
