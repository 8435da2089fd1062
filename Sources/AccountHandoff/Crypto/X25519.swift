internal import CSodium

/// An X25519 public key: exactly 32 bytes, public by nature (it travels in the QR and in frames).
public struct X25519PublicKey: Hashable, Sendable {
    /// Length of an X25519 public key in bytes.
    public static let byteCount = 32

    /// The 32 key bytes (RFC 7748 little-endian u-coordinate).
    public let bytes: [UInt8]

    /// Wraps 32 bytes; returns `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }
}

/// An ephemeral X25519 key pair whose private half lives in guarded memory.
struct X25519KeyPair {
    /// The private scalar (32 bytes, clamped by libsodium when used).
    let privateKey: SecretBytes
    /// The matching public key.
    let publicKey: X25519PublicKey

    /// Generates a fresh key pair from `random`.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    init(random: RandomSource) throws(HandoffError) {
        self.privateKey = try random.secret(X25519PublicKey.byteCount)
        self.publicKey = X25519.publicKey(for: privateKey)
    }

    /// A key pair with a copy of `other`'s private key in a new guarded buffer.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    init(copying other: X25519KeyPair) throws(HandoffError) {
        privateKey = try other.privateKey.copy()
        publicKey = other.publicKey
    }

    /// Wipes the private key.
    func wipe() { privateKey.wipe() }
}

/// X25519 (RFC 7748) through libsodium's `crypto_scalarmult`.
enum X25519 {
    /// The public key `X25519(privateKey, 9)`.
    static func publicKey(for privateKey: SecretBytes) -> X25519PublicKey {
        Sodium.ensureInitialised()
        var output = [UInt8](repeating: 0, count: X25519PublicKey.byteCount)
        privateKey.withUnsafeBytes { scalar in
            #if HANDOFF_FUZZ_X25519_CACHE
            output.withUnsafeMutableBytes { out in
                _ = FuzzX25519Cache.compute(into: out, scalar: scalar, point: nil) {
                    crypto_scalarmult_base($0, scalar.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
            #else
            _ = crypto_scalarmult_base(&output, scalar.baseAddress!.assumingMemoryBound(to: UInt8.self))
            #endif
        }
        CryptoMeter.record { $0.scalarMultBase += 1 }
        return X25519PublicKey(bytes: output)!
    }

    /// The shared secret `X25519(privateKey, peer)` in guarded memory.
    ///
    /// - Throws: ``HandoffError/lowOrderPublicKey`` when the result is all zeros, which is what
    ///   every small-order peer key produces (RFC 7748 section 6.1); such a value is never a key.
    ///   ``HandoffError/secureMemoryUnavailable(_:)``.
    static func sharedSecret(privateKey: SecretBytes, peer: X25519PublicKey) throws(HandoffError) -> SecretBytes {
        let shared = try SecretBytes(zeroedCount: X25519PublicKey.byteCount)
        do {
            try shared.withUnsafeMutableBytes { (output) throws(HandoffError) in
                try sharedSecret(privateKey: privateKey, peer: peer, into: output)
            }
        } catch {
            shared.wipe()
            throw error
        }
        return shared
    }

    /// Writes the shared secret `X25519(privateKey, peer)` into `output` (32 bytes of guarded
    /// memory); on failure `output` is left all zero.
    ///
    /// - Throws: ``HandoffError/lowOrderPublicKey``, as ``sharedSecret(privateKey:peer:)``.
    static func sharedSecret(privateKey: SecretBytes, peer: X25519PublicKey,
                             into output: UnsafeMutableRawBufferPointer) throws(HandoffError) {
        try peer.bytes.withUnsafeBytes { peer in
            Result { () throws(HandoffError) in try sharedSecret(privateKey: privateKey, peer: peer, into: output) }
        }.get()
    }

    /// ``sharedSecret(privateKey:peer:into:)-(_,X25519PublicKey,_)`` with the peer's 32 key
    /// bytes read where they lie (in a received hello).
    static func sharedSecret(privateKey: SecretBytes, peer: UnsafeRawBufferPointer,
                             into output: UnsafeMutableRawBufferPointer) throws(HandoffError) {
        precondition(output.count == X25519PublicKey.byteCount, "X25519 output size")
        precondition(peer.count == X25519PublicKey.byteCount, "X25519 public key size")
        Sodium.ensureInitialised()
        let status = privateKey.withUnsafeBytes { scalar in
            #if HANDOFF_FUZZ_X25519_CACHE
            FuzzX25519Cache.compute(into: output, scalar: scalar, point: Array(peer)) {
                crypto_scalarmult($0, scalar.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                  peer.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            #else
            crypto_scalarmult(
                output.baseAddress!.assumingMemoryBound(to: UInt8.self),
                scalar.baseAddress!.assumingMemoryBound(to: UInt8.self),
                peer.baseAddress!.assumingMemoryBound(to: UInt8.self))
            #endif
        }
        CryptoMeter.record { $0.scalarMult += 1 }
        // libsodium returns -1 exactly when the output is all zeros; check both to be explicit.
        guard status == 0, !ConstantTime.isZero(UnsafeRawBufferPointer(output)) else {
            sodium_memzero(output.baseAddress!, output.count)
            throw .lowOrderPublicKey
        }
    }
}
