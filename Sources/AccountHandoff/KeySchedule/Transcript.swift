/// The running transcript hash (Spec 4.1). Every value is SHA-256 and fixed at 32 bytes:
///
/// - `TH0 = SHA-256("AH3 transcript" | qrBinary)`
/// - `HH  = SHA-256(TH0 | receiverPublicKey)`  (handshake hash, the HKDF salt)
/// - `TH(n+1) = SHA-256(TH(n) | frameBytes)` for the hello and every non-abort frame, in order.
package struct Transcript {
    /// Domain label of the first hash.
    package static let label = Array("AH3 transcript".utf8)

    /// The current transcript hash.
    private(set) var hash: [UInt8]

    /// Starts from the exact QR binary bytes.
    init(payload: SessionPayload) {
        hash = SHA256.hash(Self.label, payload.binary)
    }

    /// The handshake hash that binds the receiver's key; only valid before the hello is absorbed.
    func handshakeHash(receiverPublicKey: X25519PublicKey) -> [UInt8] {
        SHA256.hash(hash, receiverPublicKey.bytes)
    }

    /// Chains one frame into the transcript.
    mutating func absorb(frame bytes: [UInt8]) {
        hash = SHA256.hash(hash, bytes)
    }
}
