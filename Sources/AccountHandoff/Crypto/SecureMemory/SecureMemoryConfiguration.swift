/// Limits of a ``SecureMemoryPool``, chosen when the process starts.
package struct SecureMemoryConfiguration: Hashable, Sendable {
    /// The most bytes the pool keeps locked at once: slab bodies plus dedicated mappings for
    /// large secrets (guard pages are not locked and not counted). Past it, allocations that
    /// need a new mapping fail with ``SecureMemoryFailure/capReached``.
    package var maximumLockedBytes: Int
    /// How many empty slabs each size class keeps mapped for reuse; further slabs are unmapped
    /// as soon as their last slot is released.
    package var emptySlabsKeptPerSizeClass: Int

    /// Creates a configuration.
    package init(maximumLockedBytes: Int, emptySlabsKeptPerSizeClass: Int) {
        precondition(maximumLockedBytes >= 0 && emptySlabsKeptPerSizeClass >= 0, "negative secure memory limit")
        self.maximumLockedBytes = maximumLockedBytes
        self.emptySlabsKeptPerSizeClass = emptySlabsKeptPerSizeClass
    }

    /// 256 MiB locked (4,096 slabs: at most about 12,300 memory mappings, a fifth of Linux's
    /// default `vm.max_map_count`, and room for 5.5 million 32-byte secrets), and one empty slab
    /// kept per size class so that a session's short-lived secrets never map or unmap anything.
    package static let `default` = SecureMemoryConfiguration(
        maximumLockedBytes: 256 << 20, emptySlabsKeptPerSizeClass: 1)
}
