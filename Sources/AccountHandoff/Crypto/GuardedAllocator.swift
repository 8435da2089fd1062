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
/// in the ordinary heap, still wiped before release: every guarded allocation costs several
/// system calls, which bounds the state-machine fuzzers at a few hundred executions per
/// second, while AddressSanitizer checks heap bounds byte by byte anyway. No other build can
/// select it.
enum GuardedAllocator {
    /// Allocates `count` bytes (at least 1).
    static func allocate(_ count: Int) -> UnsafeMutableRawPointer? {
        #if HANDOFF_FUZZ_ALLOCATOR
        malloc(count)
        #else
        sodium_malloc(count)
        #endif
    }

    /// Wipes and releases an allocation of `count` bytes.
    static func free(_ pointer: UnsafeMutableRawPointer, count: Int) {
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
