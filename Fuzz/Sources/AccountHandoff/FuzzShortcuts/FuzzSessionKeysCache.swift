#if HANDOFF_FUZZ_KEY_CACHE
/// Fuzzing build only (`Scripts/fuzz.sh` passes `-DHANDOFF_FUZZ_KEY_CACHE`; this file is part of
/// the `Fuzz/` package alone): remembers the four session keys derived from each (shared
/// secret, commitment, handshake hash), a pure function (Spec 4.2). Every fuzz input accepts
/// the same deterministic hellos, so the five HMAC-SHA256 runs of each derivation become a
/// lookup with the exact results, and the sessions get exactly the keys they would derive. The
/// cache holds keys in ordinary heap memory.
enum FuzzSessionKeysCache {
    /// Derivations kept at most; inputs beyond them (keys from fuzzed hellos) are derived every time.
    static let capacity = 256

    private final class Storage: @unchecked Sendable {
        // Safety of @unchecked Sendable: `results` is only touched under `lock`.
        let lock = UnfairLock()
        var results: [FuzzCacheKey: [UInt8]] = [:]
    }

    private static let storage = Storage()

    /// Writes the keys for these inputs into `derived`, from the cache or by running `derive`.
    static func derive(sharedSecret: UnsafeRawBufferPointer, commitment: UnsafeRawBufferPointer, handshakeHash: SHA256.Digest,
                       into derived: UnsafeMutableRawBufferPointer, _ derive: () -> Void) {
        let key = handshakeHash.withUnsafeBytes { FuzzCacheKey(sharedSecret, commitment, $0) }
        if let hit = storage.lock.withLock({ storage.results[key] }) {
            hit.withUnsafeBytes { derived.copyMemory(from: $0) }
            return
        }
        derive()
        let bytes = Array(derived)
        storage.lock.withLock {
            if storage.results.count < capacity { storage.results[key] = bytes }
        }
    }
}
#endif
