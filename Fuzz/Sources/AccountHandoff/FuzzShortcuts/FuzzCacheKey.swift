#if HANDOFF_FUZZ_X25519_CACHE || HANDOFF_FUZZ_KEY_CACHE
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fuzzing build only: the inputs of a memoised pure function, hashed and compared as whole
/// byte strings (one `Hasher` call, one `memcmp`) rather than element by element, which the
/// fuzzer's comparison tracing would otherwise instrument byte by byte.
struct FuzzCacheKey: Hashable {
    let bytes: [UInt8]

    /// The concatenation of `parts`.
    init(_ parts: UnsafeRawBufferPointer...) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { bytes.append(contentsOf: part) }
        self.bytes = bytes
    }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (left: FuzzCacheKey, right: FuzzCacheKey) -> Bool {
        left.bytes.count == right.bytes.count && left.bytes.withUnsafeBytes { l in
            right.bytes.withUnsafeBytes { r in l.count == 0 || memcmp(l.baseAddress!, r.baseAddress!, l.count) == 0 }
        }
    }
}
#endif
