/// The running transcript hash (Spec 4.1). Every value is SHA-256 and fixed at 32 bytes:
///
/// - `TH0 = SHA-256("AH4 transcript" | qrBinary)`
/// - `HH  = SHA-256(TH0 | receiverPublicKey)`  (handshake hash, the HKDF salt)
/// - `TH(n+1) = SHA-256(TH(n) | frameBytes)` for the hello and every non-abort frame, in order.
package struct Transcript {
    /// Domain label of the first hash.
    package static let label = Array("AH4 transcript".utf8)

    /// The current transcript hash, held inline.
    private(set) var digest: SHA256.Digest

    /// The current transcript hash, in an array (for vectors and tests).
    package var hash: [UInt8] { digest.bytes }

    /// Starts from the exact QR binary bytes.
    package init(payload: SessionPayload) {
        digest = SHA256.digest(Self.label, payload.binary)
    }

    /// Starts from a given first hash (`TH0t` of the typed way, Spec 4.5).
    init(digest: SHA256.Digest) {
        self.digest = digest
    }

    /// The handshake hash that binds the receiver's key; only valid before the hello is absorbed.
    func handshakeHash(receiverPublicKey: X25519PublicKey) -> SHA256.Digest {
        receiverPublicKey.withUnsafeBytes { handshakeHash(receiverPublicKey: $0) }
    }

    /// ``handshakeHash(receiverPublicKey:)-(X25519PublicKey)`` with the key's 32 bytes read
    /// where they lie (in a received hello).
    func handshakeHash(receiverPublicKey: UnsafeRawBufferPointer) -> SHA256.Digest {
        digest.withUnsafeBytes { SHA256.digest($0, receiverPublicKey) }
    }

    /// Chains one frame into the transcript.
    mutating func absorb(frame bytes: [UInt8]) {
        digest = SHA256.digest(digest, bytes)
    }
}
