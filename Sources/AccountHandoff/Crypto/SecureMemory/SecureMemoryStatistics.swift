/// What a ``SecureMemoryPool`` holds and how many system calls it has made; for tests and the
/// benchmark.
package struct SecureMemoryStatistics: Hashable, Sendable {
    /// Slots handed out and not yet released (secrets of at most the largest size class).
    package var liveSlots = 0
    /// Large secrets, each in its own guarded mapping, not yet released.
    package var liveLargeAllocations = 0
    /// Slabs currently mapped, including empty ones kept for reuse.
    package var slabs = 0
    /// Slabs currently mapped with no live slot.
    package var emptySlabs = 0
    /// Bytes of address space mapped, guard pages included.
    package var mappedBytes = 0
    /// Bytes locked with `mlock` (slab bodies and large mappings, not guard pages).
    package var lockedBytes = 0
    /// Every allocation that succeeded.
    package var allocations = 0
    /// Allocations served from a slab that was already mapped (no system call).
    package var allocationsFromExistingSlabs = 0
    /// Every release.
    package var releases = 0
    /// Reservations open now (``SecureMemoryReservation``).
    package var openReservations = 0
    /// Slots the open reservations hold and have not drawn.
    package var reservedSlots = 0
    /// Reservations refused because the slabs they needed could not be mapped.
    package var refusedReservations = 0
    /// Allocations bound to an open reservation that had no slot left for them.
    package var overdrafts = 0
    /// `mmap` calls made (successful or not).
    package var mmapCalls = 0
    /// `munmap` calls made.
    package var munmapCalls = 0
    /// `mprotect` calls made.
    package var mprotectCalls = 0
    /// `madvise` calls made.
    package var madviseCalls = 0
    /// `mlock` calls made.
    package var mlockCalls = 0

    /// All memory-management system calls made.
    package var systemCalls: Int { mmapCalls + munmapCalls + mprotectCalls + madviseCalls + mlockCalls }
}
