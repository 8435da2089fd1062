internal import CSodium

/// SHA-256 (FIPS 180-4) through libsodium.
package enum SHA256 {
    /// Digest length in bytes.
    package static let byteCount = 32

    /// A digest held inline (32 bytes, no heap storage): what the protocol's transcript,
    /// handshake and commitment hashes are kept as.
    package struct Digest: Sendable {
        private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        fileprivate init() {}

        /// The digest whose bytes are `bytes`; `nil` unless there are 32 of them.
        init?(bytes: [UInt8]) {
            guard bytes.count == SHA256.byteCount else { return nil }
            withUnsafeMutableBytes { digest in bytes.withUnsafeBytes { digest.copyMemory(from: $0) } }
        }

        /// Calls `body` with the 32 digest bytes.
        func withUnsafeBytes<Result, Failure: Error>(
            _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            try Swift.withUnsafeBytes(of: words) { (bytes) throws(Failure) -> Result in try body(bytes) }
        }

        /// The digest bytes in an array, for vectors and tests.
        package var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

        fileprivate mutating func withUnsafeMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
            Swift.withUnsafeMutableBytes(of: &words, body)
        }
    }

    /// The digest of the concatenation of `parts`.
    static func hash(_ parts: [UInt8]...) -> [UInt8] {
        hash(parts: parts)
    }

    /// The digest of `first | second`, in an array.
    static func hash(_ first: [UInt8], _ second: [UInt8]) -> [UInt8] {
        digest(first, second).bytes
    }

    /// The digest of the concatenation of `parts`.
    package static func hash(parts: [[UInt8]]) -> [UInt8] {
        digest { state in
            for part in parts { crypto_hash_sha256_update(&state, part, UInt64(part.count)) }
        }.bytes
    }

    /// The digest of `first | second`: every hash of the protocol is of two parts (a label or
    /// a transcript hash, then the QR binary, a key, a nonce or a frame). With `wipingState`
    /// the hash state is wiped afterwards (for a part read straight from guarded memory).
    static func digest(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer,
                       wipingState: Bool = false) -> Digest {
        digest(wipingState: wipingState) { state in
            update(&state, first)
            update(&state, second)
        }
    }

    /// The digest of `first | second`.
    static func digest(_ first: [UInt8], _ second: [UInt8]) -> Digest {
        first.withUnsafeBytes { first in second.withUnsafeBytes { digest(first, $0) } }
    }

    /// The digest of `first | second`, chaining a hash.
    static func digest(_ first: Digest, _ second: [UInt8]) -> Digest {
        first.withUnsafeBytes { first in second.withUnsafeBytes { digest(first, $0) } }
    }

    private static func update(_ state: inout crypto_hash_sha256_state, _ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        crypto_hash_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// Runs `absorb` between init and final.
    private static func digest(wipingState: Bool = false,
                               _ absorb: (inout crypto_hash_sha256_state) -> Void) -> Digest {
        Sodium.ensureInitialised()
        var state = crypto_hash_sha256_state()
        defer { if wipingState { sodium_memzero(&state, MemoryLayout<crypto_hash_sha256_state>.size) } }
        crypto_hash_sha256_init(&state)
        absorb(&state)
        var digest = Digest()
        digest.withUnsafeMutableBytes { _ = crypto_hash_sha256_final(&state, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        return digest
    }
}

/// HMAC-SHA256 (RFC 2104) through libsodium, which accepts keys of any length. Secret inputs
/// are fed straight from guarded memory.
///
/// The protocol's tags and HKDF blocks use ``tag(key:_:_:_:into:)``, whose state lives on the
/// stack and is wiped when it returns: no object to allocate per tag. An instance is the
/// incremental form, its state wiped on release.
package final class HMACSHA256 {
    /// Tag length in bytes.
    package static let byteCount = 32

    private var state = crypto_auth_hmacsha256_state()

    /// Starts an HMAC keyed with `keyBytes` (read where they lie).
    package init(keyBytes: UnsafeRawBufferPointer) {
        Self.start(&state, keyBytes: keyBytes)
    }

    deinit { sodium_memzero(&state, MemoryLayout<crypto_auth_hmacsha256_state>.size) }

    /// Absorbs public bytes.
    package func update(_ bytes: [UInt8]) {
        crypto_auth_hmacsha256_update(&state, bytes, UInt64(bytes.count))
    }

    /// Absorbs bytes where they lie (in guarded memory for a secret), without copying them.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        Self.absorb(&state, bytes)
    }

    /// Writes the tag into the first 32 bytes of `output` (guarded memory of the caller).
    package func finalize(into output: UnsafeMutableRawBufferPointer) {
        Self.finish(&state, into: output)
    }

    /// Writes `HMAC(key, first | second | third)` into the first 32 bytes of `output`, every
    /// part read where it lies; the state is a local, wiped before it returns.
    static func tag(key: UnsafeRawBufferPointer, _ first: UnsafeRawBufferPointer,
                    _ second: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
                    _ third: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
                    into output: UnsafeMutableRawBufferPointer) {
        var state = crypto_auth_hmacsha256_state()
        defer { sodium_memzero(&state, MemoryLayout<crypto_auth_hmacsha256_state>.size) }
        start(&state, keyBytes: key)
        absorb(&state, first)
        absorb(&state, second)
        absorb(&state, third)
        finish(&state, into: output)
    }

    private static func start(_ state: inout crypto_auth_hmacsha256_state, keyBytes: UnsafeRawBufferPointer) {
        Sodium.ensureInitialised()
        // libsodium wants a valid pointer even for an empty key.
        var empty: UInt8 = 0
        if let base = keyBytes.baseAddress, keyBytes.count > 0 {
            crypto_auth_hmacsha256_init(&state, base.assumingMemoryBound(to: UInt8.self), keyBytes.count)
        } else {
            crypto_auth_hmacsha256_init(&state, &empty, 0)
        }
    }

    private static func absorb(_ state: inout crypto_auth_hmacsha256_state, _ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        crypto_auth_hmacsha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    private static func finish(_ state: inout crypto_auth_hmacsha256_state, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= byteCount, "HMAC output buffer too small")
        _ = crypto_auth_hmacsha256_final(&state, output.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }
}
