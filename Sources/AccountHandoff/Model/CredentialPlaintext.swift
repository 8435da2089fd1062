
/// The credential frame's plaintext (Spec 3.5): `u16 n | password(n) | zeros` to exactly
/// ``paddedByteCount`` bytes, built and parsed only inside guarded memory so the password
/// never passes through an ordinary Swift buffer and its length stays hidden on the wire.
package enum CredentialPlaintext {
    /// Fixed plaintext size.
    package static let paddedByteCount = 1024
    /// Longest password in bytes (public as ``HandoffSender/maximumCredentialByteCount``).
    static let maximumCredentialByteCount = paddedByteCount - 2

    /// Pads `credential` into a new guarded buffer.
    ///
    /// - Throws: `.malformed(.credential)` when empty or longer than ``maximumCredentialByteCount``;
    ///   ``HandoffError/secureMemoryUnavailable(_:)``.
    static func pad(_ credential: SecretBytes) throws(HandoffError) -> SecretBytes {
        guard credential.count > 0, credential.count <= maximumCredentialByteCount else { throw .malformed(.credential) }
        let padded = try SecretBytes(zeroedCount: paddedByteCount)
        padded.withUnsafeMutableBytes { output in
            output[0] = UInt8(credential.count >> 8)
            output[1] = UInt8(truncatingIfNeeded: credential.count)
            credential.withUnsafeBytes { source in
                output.baseAddress!.advanced(by: 2).copyMemory(from: source.baseAddress!, byteCount: source.count)
            }
        }
        return padded
    }

    /// Extracts the credential from a decrypted plaintext into a new guarded buffer.
    ///
    /// - Throws: `.malformed(.credential)` for a bad length; `.malformed(.padding)` for non-zero
    ///   padding; ``HandoffError/secureMemoryUnavailable(_:)``.
    static func unpad(_ padded: SecretBytes) throws(HandoffError) -> SecretBytes {
        guard padded.count == paddedByteCount else { throw .malformed(.credential) }
        let length = padded.withUnsafeBytes { Int($0[0]) << 8 | Int($0[1]) }
        guard length > 0, length <= maximumCredentialByteCount else { throw .malformed(.credential) }
        let paddingIsZero = padded.withUnsafeBytes { buffer in
            ConstantTime.isZero(UnsafeRawBufferPointer(rebasing: buffer[(2 + length)...]))
        }
        guard paddingIsZero else { throw .malformed(.padding) }
        let credential = try SecretBytes(zeroedCount: length)
        credential.withUnsafeMutableBytes { output in
            padded.withUnsafeBytes { source in
                output.baseAddress!.copyMemory(from: source.baseAddress!.advanced(by: 2), byteCount: length)
            }
        }
        return credential
    }
}
