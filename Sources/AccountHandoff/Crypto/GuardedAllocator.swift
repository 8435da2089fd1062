internal import CSodium
#if HANDOFF_FUZZ_ALLOCATOR
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#endif

/// Where ``SecretBytes`` gets its memory: libsodium's guarded allocations (guard pages,
/// `mlock`, wiped by `sodium_free`).
///
/// Only the fuzzing build (`Scripts/fuzz.sh`, which passes `-DHANDOFF_FUZZ_ALLOCATOR`) swaps
/// in the ordinary heap, still wiped before release: AddressSanitizer checks heap bounds byte
/// by byte anyway. No other build can select it.
enum GuardedAllocator {
    /// Allocates `count` bytes (at least 1) of guarded memory.
    ///
    /// - Throws: a ``SecureMemoryFailure`` when no guarded memory can be had.
    static func allocate(_ count: Int) throws(SecureMemoryFailure) -> UnsafeMutableRawPointer {
        #if HANDOFF_FUZZ_ALLOCATOR
        guard let pointer = malloc(count) else { throw .capReached }
        #else
        guard let pointer = sodium_malloc(count) else { throw .mappingLimitReached }
        #endif
        return pointer
    }

    /// Wipes and releases an allocation of `count` bytes.
    static func release(_ pointer: UnsafeMutableRawPointer, count: Int) {
        #if HANDOFF_FUZZ_ALLOCATOR
        sodium_memzero(pointer, count)
        #if canImport(Glibc)
        Glibc.free(pointer)
        #else
        Darwin.free(pointer)
        #endif
        #else
        sodium_free(pointer)
        #endif
    }
}
