#if HANDOFF_FUZZ_X25519_CACHE
/// Fuzzing build only (`Scripts/fuzz.sh` passes `-DHANDOFF_FUZZ_X25519_CACHE`; this file is part
/// of the `Fuzz/` package alone): remembers the results of X25519, a pure function of its
/// scalar and point.
/// Every fuzz input starts the same deterministic sessions, so the four scalar multiplications
/// each input would repeat (about a third of a state-machine target's time) become lookups;
/// the results are the exact ones, so the state machines see exactly what they would see.
/// The cache holds private keys in ordinary heap memory.
enum FuzzX25519Cache {
    /// Results kept at most; inputs beyond them (fuzzed peer keys) are computed every time.
    static let capacity = 256

    private final class Storage: @unchecked Sendable {
        // Safety of @unchecked Sendable: `results` is only touched under `lock`.
        let lock = UnfairLock()
        var results: [FuzzCacheKey: (status: Int32, output: [UInt8])] = [:]
    }

    private static let storage = Storage()

    /// Writes `X25519(scalar, point)` (`point` nil: the base point) into `output`, from the
    /// cache or by running `operation`, and returns `operation`'s status.
    static func compute(into output: UnsafeMutableRawBufferPointer, scalar: UnsafeRawBufferPointer, point: [UInt8]?,
                        _ operation: (UnsafeMutablePointer<UInt8>) -> Int32) -> Int32 {
        let key = (point ?? []).withUnsafeBytes { FuzzCacheKey(scalar, $0) }
        if let hit = storage.lock.withLock({ storage.results[key] }) {
            hit.output.withUnsafeBytes { output.copyMemory(from: $0) }
            return hit.status
        }
        let status = operation(output.baseAddress!.assumingMemoryBound(to: UInt8.self))
        let result = Array(output)
        storage.lock.withLock {
            if storage.results.count < capacity { storage.results[key] = (status, result) }
        }
        return status
    }
}
#endif
