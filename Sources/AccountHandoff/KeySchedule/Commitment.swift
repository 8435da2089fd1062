/// The sender's commitment to its nonce (Spec 2.1, 4.4): `SHA-256("AH4 commitment" | nonce)`.
///
/// The QR carries the commitment before any receiver exists; the reveal carries the nonce
/// after a hello authenticated. Binding (a full 32-byte SHA-256) keeps the sender from
/// changing its contribution to the short code once it has seen the receiver's; hiding (a
/// 32-byte random nonce) keeps the receiver from knowing it before it has committed its own.
package enum Commitment {
    /// Length of the nonce in bytes.
    package static let nonceByteCount = 32
    /// Domain label.
    package static let label = Array("AH4 commitment".utf8)

    /// Whether `nonce` (read where it lies) opens `commitment`, compared in constant time.
    static func opens(_ commitment: ArraySlice<UInt8>, with nonce: UnsafeRawBufferPointer) -> Bool {
        digest(of: nonce).withUnsafeBytes { digest in commitment.withUnsafeBytes { ConstantTime.equal(digest, $0) } }
    }

    /// `SHA-256("AH4 commitment" | nonce)`, the nonce read straight from guarded memory.
    package static func digest(of nonce: UnsafeRawBufferPointer) -> SHA256.Digest {
        label.withUnsafeBytes { SHA256.digest($0, nonce, wipingState: true) }
    }
}
