internal import CSodium

/// An X25519 public key: exactly 32 bytes, public by nature (it travels in the QR and in frames).
public struct X25519PublicKey: Hashable, Sendable {
    /// Length of an X25519 public key in bytes.
    public static let byteCount = 32

    /// The 32 bytes in order, held inline: every session makes or decodes two, and neither
    /// should allocate for it.
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The 32 key bytes (RFC 7748 little-endian u-coordinate).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Wraps 32 bytes; returns `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self = bytes.withUnsafeBytes { X25519PublicKey(copying: $0) }
    }

    /// The 32 bytes of `source` (exactly that many).
    init(copying source: UnsafeRawBufferPointer) {
        precondition(source.count == Self.byteCount, "X25519 public key size")
        Swift.withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
    }

    /// The key that `write` writes into its 32 bytes.
    fileprivate init(writing write: (UnsafeMutableRawBufferPointer) -> Void) {
        Swift.withUnsafeMutableBytes(of: &storage, write)
    }

    /// Calls `body` with the 32 key bytes.
    func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try Swift.withUnsafeBytes(of: storage) { (bytes) throws(Failure) -> Result in try body(bytes) }
    }

    /// Whether both are the same 32 bytes.
    public static func == (left: X25519PublicKey, right: X25519PublicKey) -> Bool {
        left.storage == right.storage
    }

    /// Feeds the 32 bytes to `hasher`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.0)
        hasher.combine(storage.1)
        hasher.combine(storage.2)
        hasher.combine(storage.3)
    }
}

/// An ephemeral X25519 key pair whose private half lives in a session's arena.
struct X25519KeyPair {
    /// The private scalar (32 bytes, clamped by libsodium when used).
    let privateKey: SessionSecret
    /// The matching public key.
    let publicKey: X25519PublicKey

    /// Generates a fresh key pair from `random`, the private key kept in `arena`.
    init(random: RandomSource, in arena: SessionArena) {
        privateKey = random.secret(X25519PublicKey.byteCount, in: arena)
        publicKey = privateKey.withUnsafeBytes { X25519.publicKey(for: $0) }
    }

    /// A key pair with a copy of `other`'s private key, kept in `arena`.
    init(copying other: X25519KeyPair, in arena: SessionArena) {
        privateKey = other.privateKey.withUnsafeBytes { arena.keep(copying: $0) }
        publicKey = other.publicKey
    }

    /// Wipes the private key.
    func wipe() { privateKey.wipe() }
}

/// X25519 (RFC 7748) through libsodium's `crypto_scalarmult`, on keys read where they lie.
package enum X25519 {
    /// The public key `X25519(privateKey, 9)` of a 32-byte private key.
    package static func publicKey(for privateKey: UnsafeRawBufferPointer) -> X25519PublicKey {
        precondition(privateKey.count == X25519PublicKey.byteCount, "X25519 private key size")
        Sodium.ensureInitialised()
        return X25519PublicKey { out in
            #if HANDOFF_FUZZ_X25519_CACHE
            _ = FuzzX25519Cache.compute(into: out, scalar: privateKey, point: nil) {
                crypto_scalarmult_base($0, privateKey.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            #else
            _ = crypto_scalarmult_base(out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                       privateKey.baseAddress!.assumingMemoryBound(to: UInt8.self))
            #endif
        }
    }

    /// Writes the shared secret `X25519(privateKey, peer)` into `output` (32 bytes of guarded
    /// memory), the peer's 32 key bytes read where they lie (in a received hello or the QR);
    /// on failure `output` is left all zero.
    ///
    /// - Throws: ``HandoffError/lowOrderPublicKey`` when the result is all zeros, which is what
    ///   every small-order peer key produces (RFC 7748 section 6.1); such a value is never a key.
    package static func sharedSecret(privateKey: UnsafeRawBufferPointer, peer: UnsafeRawBufferPointer,
                             into output: UnsafeMutableRawBufferPointer) throws(HandoffError) {
        precondition(output.count == X25519PublicKey.byteCount, "X25519 output size")
        precondition(peer.count == X25519PublicKey.byteCount, "X25519 public key size")
        precondition(privateKey.count == X25519PublicKey.byteCount, "X25519 private key size")
        Sodium.ensureInitialised()
        #if HANDOFF_FUZZ_X25519_CACHE
        let status = FuzzX25519Cache.compute(into: output, scalar: privateKey, point: Array(peer)) {
            crypto_scalarmult($0, privateKey.baseAddress!.assumingMemoryBound(to: UInt8.self),
                              peer.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        #else
        let status = crypto_scalarmult(
            output.baseAddress!.assumingMemoryBound(to: UInt8.self),
            privateKey.baseAddress!.assumingMemoryBound(to: UInt8.self),
            peer.baseAddress!.assumingMemoryBound(to: UInt8.self))
        #endif
        // libsodium returns -1 exactly when the output is all zeros; check both to be explicit.
        guard status == 0, !ConstantTime.isZero(UnsafeRawBufferPointer(output)) else {
            sodium_memzero(output.baseAddress!, output.count)
            throw .lowOrderPublicKey
        }
    }
}
