internal import CSodium

/// Where every random byte of a session comes from. Injected so the protocol core has
/// no randomness of its own.
///
/// Production code uses ``SystemRandomSource``. A seeded source for tests and vector
/// generation lives in the separate `AccountHandoffTestSupport` module.
public protocol RandomSource: AnyObject {
    /// Fills `buffer` entirely with random bytes.
    func fill(_ buffer: UnsafeMutableRawBufferPointer)
}

/// The operating system's CSPRNG through libsodium's `randombytes_buf`.
public final class SystemRandomSource: RandomSource, @unchecked Sendable {
    // Stateless: randombytes_buf is thread-safe.

    /// Creates the system random source.
    public init() { Sodium.ensureInitialised() }

    /// Fills `buffer` from the OS CSPRNG.
    public func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        randombytes_buf(base, buffer.count)
    }
}

extension RandomSource {
    /// `count` public random bytes (for example a transport's connection tag).
    func bytes(_ count: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBytes { fill($0) }
        return result
    }

    /// `count` random bytes generated straight into a session's arena, kept there.
    func secret(_ count: Int, in arena: SessionArena) -> SessionSecret {
        let secret = arena.keep(count)
        secret.withUnsafeMutableBytes { fill($0) }
        return secret
    }
}
