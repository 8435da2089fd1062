internal import CSodium
#if HANDOFF_FUZZ_ALLOCATOR
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#endif

/// Where ``SecretBytes`` gets its memory: the process's ``SecureMemoryPool`` (slots in
/// guarded, locked, no-dump slabs; canaries checked and slots wiped on release).
///
/// Only the fuzzing build (`Scripts/fuzz.sh`, which passes `-DHANDOFF_FUZZ_ALLOCATOR`) swaps
/// in the ordinary heap, still wiped before release: AddressSanitizer checks heap bounds byte
/// by byte, which guard pages and canaries cannot match. No other build can select it.
package enum GuardedAllocator {
    /// The pool every secret of this process lives in.
    package static let pool = SecureMemoryPool(configuration: .default)

    /// Test hook: while bound (``refusing(with:_:)``), every guarded allocation and reservation
    /// made on this task or thread fails with this failure, as in a pool that ran out, and the
    /// process's pool is not touched. Vectors and tests of Spec 6.0 step 4 use it.
    @TaskLocal package static var refusal: SecureMemoryFailure?

    /// Test hook: runs `body` with every guarded allocation and reservation it makes on this
    /// task or thread refused with `failure` (the pool's cap, unless said otherwise).
    package static func refusing<Result, Failure: Error>(with failure: SecureMemoryFailure = .capReached,
                                                        _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let outcome = $refusal.withValue(failure) { () -> Swift.Result<Result, Failure> in
            do throws(Failure) { return .success(try body()) } catch { return .failure(error) }
        }
        return try outcome.get()
    }

    /// Returns `count` (at least 1) zero bytes of guarded, locked memory, drawn from the
    /// reservation bound to the running code (``SecureMemoryReservation/current``) when there
    /// is one.
    ///
    /// - Throws: ``SecureMemoryFailure`` when no guarded, locked memory can be had; never
    ///   returns weaker memory instead.
    package static func allocate(_ count: Int) throws(SecureMemoryFailure) -> GuardedAllocation {
        if let refusal { throw refusal }
        #if HANDOFF_FUZZ_ALLOCATOR
        guard let pointer = calloc(1, count) else { throw .mappingLimitReached }
        return GuardedAllocation(pointer: pointer, releaseCount: count, reservationID: 0)
        #else
        return try pool.allocate(count, drawingFrom: SecureMemoryReservation.current)
        #endif
    }

    /// Checks, wipes and releases an allocation made by ``allocate(_:)``.
    package static func release(_ allocation: GuardedAllocation) {
        #if HANDOFF_FUZZ_ALLOCATOR
        sodium_memzero(allocation.pointer, allocation.releaseCount)
        free(allocation.pointer)
        #else
        pool.release(allocation)
        #endif
    }

    /// Sets aside the slots of `demand` in the pool (Spec 8.5); the fuzzing build's heap
    /// allocator sets nothing aside.
    ///
    /// - Throws: ``SecureMemoryFailure`` when the slabs cannot be mapped; nothing is set aside.
    package static func reserve(_ demand: SecureMemoryDemand) throws(SecureMemoryFailure) -> SecureMemoryReservation {
        if let refusal { throw refusal }
        #if HANDOFF_FUZZ_ALLOCATOR
        return SecureMemoryReservation(pool: pool, id: 0, demand: demand)
        #else
        return try pool.reserve(demand)
        #endif
    }

    /// Changes the pool's limits; call it when the process starts, before the first secret.
    /// A lower cap only affects later mappings.
    package static func configure(_ configuration: SecureMemoryConfiguration) {
        pool.reconfigure(configuration)
    }

    /// What the pool holds and the system calls it has made.
    package static var statistics: SecureMemoryStatistics { pool.statistics }
}
