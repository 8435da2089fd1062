internal import CSodium

/// ChaCha20-Poly1305 IETF (RFC 8439: 256-bit key, 96-bit nonce, 128-bit tag) through libsodium.
///
/// The session seals and opens through the buffer forms (nonce, AD and output where the caller
/// has them: the stack, or the frame's own array); the array forms serve vectors and tests.
enum ChaCha20Poly1305 {
    /// Key length in bytes.
    static let keyByteCount = 32
    /// Nonce length in bytes.
    static let nonceByteCount = 12
    /// Authentication tag length in bytes.
    static let tagByteCount = 16

    /// Encrypts `plaintext` (read from guarded memory) and returns `ciphertext || tag`.
    static func seal(key: SecretBytes, nonce: [UInt8], plaintext: SecretBytes, additionalData: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: plaintext.count + tagByteCount) { buffer, initialized in
            plaintext.withUnsafeBytes { message in
                nonce.withUnsafeBytes { nonce in
                    additionalData.withUnsafeBytes { additionalData in
                        seal(key: key, nonce: nonce, plaintext: message, additionalData: additionalData,
                             into: UnsafeMutableRawBufferPointer(buffer))
                    }
                }
            }
            initialized = buffer.count
        }
    }

    /// Encrypts `plaintext` into `output` (exactly `plaintext.count + tagByteCount` bytes):
    /// `ciphertext || tag`.
    static func seal(key: SecretBytes, nonce: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer,
                     additionalData: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(key.count == keyByteCount && nonce.count == nonceByteCount, "AEAD key or nonce size")
        precondition(output.count == plaintext.count + tagByteCount, "AEAD output size")
        Sodium.ensureInitialised()
        var outputLength: UInt64 = 0
        key.withUnsafeBytes { keyBytes in
            _ = crypto_aead_chacha20poly1305_ietf_encrypt(
                output.baseAddress!.assumingMemoryBound(to: UInt8.self), &outputLength,
                plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(plaintext.count),
                additionalData.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(additionalData.count),
                nil, nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
                keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        CryptoMeter.record { counts in
            counts.aeadSeals += 1
            counts.aeadSealedBytes += plaintext.count
            counts.aeadSealADBytes += additionalData.count
        }
    }

    /// Verifies and decrypts `ciphertext || tag`; the plaintext goes straight into guarded memory.
    ///
    /// - Throws: ``HandoffError/authenticationFailed`` for any wrong key, nonce, data or tag;
    ///   ``HandoffError/secureMemoryUnavailable(_:)`` when the plaintext buffer cannot be had
    ///   for a ciphertext that authenticates (the tag is then checked without decrypting, so an
    ///   unauthenticated one is still `authenticationFailed`).
    static func open(key: SecretBytes, nonce: [UInt8], sealed: [UInt8], additionalData: [UInt8]) throws(HandoffError) -> SecretBytes {
        try nonce.withUnsafeBytes { nonce in
            sealed.withUnsafeBytes { sealed in
                additionalData.withUnsafeBytes { additionalData in
                    Result { () throws(HandoffError) in try open(key: key, nonce: nonce, sealed: sealed, additionalData: additionalData) }
                }
            }
        }.get()
    }

    /// ``open(key:nonce:sealed:additionalData:)-([UInt8],[UInt8],[UInt8])`` on buffers.
    static func open(key: SecretBytes, nonce: UnsafeRawBufferPointer, sealed: UnsafeRawBufferPointer,
                     additionalData: UnsafeRawBufferPointer) throws(HandoffError) -> SecretBytes {
        guard key.count == keyByteCount, nonce.count == nonceByteCount, sealed.count >= tagByteCount else {
            throw .authenticationFailed
        }
        Sodium.ensureInitialised()
        let plaintext: SecretBytes
        do { plaintext = try SecretBytes(zeroedCount: sealed.count - tagByteCount) } catch {
            guard isAuthentic(key: key, nonce: nonce, sealed: sealed, additionalData: additionalData) else {
                throw .authenticationFailed
            }
            throw error
        }
        var plaintextLength: UInt64 = 0
        let status = key.withUnsafeBytes { keyBytes in
            plaintext.withUnsafeMutableBytes { output in
                crypto_aead_chacha20poly1305_ietf_decrypt(
                    output.baseAddress!.assumingMemoryBound(to: UInt8.self), &plaintextLength,
                    nil,
                    sealed.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(sealed.count),
                    additionalData.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(additionalData.count),
                    nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        CryptoMeter.record { counts in
            counts.aeadOpens += 1
            counts.aeadOpenedBytes += sealed.count
            counts.aeadOpenADBytes += additionalData.count
        }
        guard status == 0 else {
            plaintext.wipe()
            throw .authenticationFailed
        }
        return plaintext
    }

    /// Whether `ciphertext || tag` authenticates, checked without decrypting (libsodium's
    /// detached decryption with no message buffer only verifies the tag).
    private static func isAuthentic(key: SecretBytes, nonce: UnsafeRawBufferPointer, sealed: UnsafeRawBufferPointer,
                                    additionalData: UnsafeRawBufferPointer) -> Bool {
        guard key.count == keyByteCount, nonce.count == nonceByteCount, sealed.count >= tagByteCount else { return false }
        Sodium.ensureInitialised()
        let ciphertextLength = sealed.count - tagByteCount
        let bytes = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return key.withUnsafeBytes { keyBytes in
            crypto_aead_chacha20poly1305_ietf_decrypt_detached(
                nil, nil,
                bytes, UInt64(ciphertextLength),
                bytes + ciphertextLength,
                additionalData.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(additionalData.count),
                nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
                keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 0
        }
    }
}
