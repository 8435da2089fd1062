/// The credential frame's plaintext (Spec 3.5): `u16 n | password(n) | zeros` to exactly
/// ``paddedByteCount`` bytes, built and parsed only inside guarded memory so the password
/// never passes through an ordinary Swift buffer and its length stays hidden on the wire.
package enum CredentialPlaintext {
    /// Fixed plaintext size.
    package static let paddedByteCount = 1024
    /// Longest password in bytes (public as ``HandoffSender/maximumCredentialByteCount``).
    package static let maximumCredentialByteCount = paddedByteCount - 2

    /// Whether a password of `count` bytes can travel: 1 ... ``maximumCredentialByteCount``;
    /// another length is `malformed.credential`.
    package static func isValidLength(_ count: Int) -> Bool { count > 0 && count <= maximumCredentialByteCount }

    /// Pads `credential` into `output` (``paddedByteCount`` zero bytes of guarded memory).
    ///
    /// - Precondition: the length is valid (``isValidLength(_:)``).
    package static func pad(_ credential: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(isValidLength(credential.count) && output.count == paddedByteCount, "credential plaintext size")
        output[0] = UInt8(credential.count >> 8)
        output[1] = UInt8(truncatingIfNeeded: credential.count)
        output.baseAddress!.advanced(by: 2).copyMemory(from: credential.baseAddress!, byteCount: credential.count)
    }

    /// The password inside a decrypted plaintext, read where it lies (strict, Spec 3.5).
    ///
    /// - Throws: `.malformed(.credential)` for a bad size or length; `.malformed(.padding)`
    ///   for non-zero padding.
    package static func credential(in padded: UnsafeRawBufferPointer) throws(HandoffError) -> UnsafeRawBufferPointer {
        guard padded.count == paddedByteCount else { throw .malformed(.credential) }
        let length = Int(padded[0]) << 8 | Int(padded[1])
        guard isValidLength(length) else { throw .malformed(.credential) }
        guard ConstantTime.isZero(UnsafeRawBufferPointer(rebasing: padded[(2 + length)...])) else { throw .malformed(.padding) }
        return UnsafeRawBufferPointer(rebasing: padded[2..<(2 + length)])
    }
}
