#if HANDOFF_FUZZ_KEY_CACHE
/// Fuzzing build only (`Scripts/fuzz.sh` passes `-DHANDOFF_FUZZ_KEY_CACHE`; no other build can
/// select it): remembers the four session keys derived from each (shared secret, commitment,
/// handshake hash), a pure function (Spec 4.2). Every fuzz input accepts the same deterministic
/// hellos, so the five HMAC-SHA256 runs of each derivation become a lookup with the exact
/// results, and the sessions get exactly the keys they would derive. The cache holds keys in
/// ordinary heap memory, like the fuzz build's allocator.
enum FuzzSessionKeysCache {
    /// Derivations kept at most; inputs beyond them (keys from fuzzed hellos) are derived every time.
    static let capacity = 256

    private final class Storage: @unchecked Sendable {
        // Safety of @unchecked Sendable: `results` is only touched under `lock`.
        let lock = UnfairLock()
        var results: [FuzzCacheKey: [UInt8]] = [:]
    }

    private static let storage = Storage()

    /// The keys for these inputs (new guarded buffers), from the cache or from `derive`.
    static func keys(sharedSecret: UnsafeRawBufferPointer, commitment: SecretBytes, handshakeHash: SHA256.Digest,
                     derive: () throws(HandoffError) -> [SecretBytes]) throws(HandoffError) -> [SecretBytes] {
        let key = commitment.withUnsafeBytes { committed in
            handshakeHash.withUnsafeBytes { FuzzCacheKey(sharedSecret, committed, $0) }
        }
        if let hit = storage.lock.withLock({ storage.results[key] }) {
            let length = SessionKeys.keyByteCount
            return try SecretBytes.all(Array(stride(from: 0, to: hit.count, by: length))) {
                (start) throws(HandoffError) in try SecretBytes(copying: hit[start..<start + length])
            }
        }
        let derived = try derive()
        let bytes = derived.flatMap { $0.withUnsafeBytes { Array($0) } }
        storage.lock.withLock {
            if storage.results.count < capacity { storage.results[key] = bytes }
        }
        return derived
    }
}
#endif
