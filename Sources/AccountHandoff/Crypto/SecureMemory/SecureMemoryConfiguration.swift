/// Limits of a ``SecureMemoryPool``, chosen when the process starts.
package struct SecureMemoryConfiguration: Hashable, Sendable {
    /// The most bytes the pool keeps locked at once: slab bodies plus dedicated mappings for
    /// large secrets (guard pages are not locked and not counted). Past it, allocations and
    /// reservations that need a new mapping fail with ``SecureMemoryFailure/capReached``.
    package var maximumLockedBytes: Int
    /// How many empty slabs each size class keeps mapped for reuse beyond those that
    /// reservations need; further slabs are unmapped as soon as their last slot is released or
    /// the reservation that needed them ends.
    package var emptySlabsKeptPerSizeClass: Int

    /// Creates a configuration.
    package init(maximumLockedBytes: Int, emptySlabsKeptPerSizeClass: Int) {
        precondition(maximumLockedBytes >= 0 && emptySlabsKeptPerSizeClass >= 0, "negative secure memory limit")
        self.maximumLockedBytes = maximumLockedBytes
        self.emptySlabsKeptPerSizeClass = emptySlabsKeptPerSizeClass
    }

    /// 320 MiB locked: room for 100,000 pending senders, each of which reserves 2,784 bytes of
    /// slots at `start` (``SessionMemory/sender``: 4,251 slabs for 100,000), with a fifth to
    /// spare; 5,120 slabs are at most about 15,400 memory mappings, under a quarter of Linux's
    /// default `vm.max_map_count`. One empty slab is kept per size class so that a session's
    /// short-lived secrets never map or unmap anything.
    package static let `default` = SecureMemoryConfiguration(
        maximumLockedBytes: 320 << 20, emptySlabsKeptPerSizeClass: 1)
}
