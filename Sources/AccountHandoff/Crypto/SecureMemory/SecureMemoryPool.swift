internal import CSodium

/// Guarded, locked memory for secrets, carved from slabs so that guard pages, `mlock` and
/// core-dump exclusion cost system calls once per 64 KiB slab instead of once per secret.
///
/// - Requests of 1 ... 4096 bytes take a slot of the smallest size class that fits
///   (``SlotLayout``). Each slab body is mapped by ``GuardedRegion``: a `PROT_NONE` page on
///   either side, locked, excluded from core dumps, every result checked; when any step fails
///   the slab is unmapped and the allocation throws. Nothing is ever handed out unguarded or
///   unlocked.
/// - Larger requests get a guarded region of their own, the secret placed at its end so that
///   an overflow faults on the trailing guard page.
/// - A released slot is checked (both canary words, and the bytes between the requested length
///   and the slot's end still zero), then wiped; a slot is checked to be all zero again before
///   it is handed out, so a write through a stale pointer is caught too. Any mismatch is memory
///   corruption and traps with a message that holds no secret.
/// - Total locked bytes are capped (``SecureMemoryConfiguration``), and a size class keeps at
///   most a configured number of empty slabs; emptier ones are unmapped at once.
///
/// All bookkeeping lives outside the slabs, under one lock, so an overflow cannot redirect it.
package final class SecureMemoryPool: Sendable {
    private let state: PoolLock<PoolState>

    /// Creates an empty pool; nothing is mapped until the first allocation.
    package init(configuration: SecureMemoryConfiguration = .default) {
        state = PoolLock(PoolState(configuration: configuration))
    }

    deinit {
        state.withLock { state in state.unmapEverything() }
    }

    /// Returns `count` (at least 1) zero bytes of guarded, locked memory, 16-byte aligned.
    ///
    /// - Throws: ``SecureMemoryFailure`` when the cap is reached or the system refuses to map,
    ///   guard or lock more memory.
    package func allocate(_ count: Int) throws(SecureMemoryFailure) -> UnsafeMutableRawPointer {
        precondition(count > 0, "secure memory: allocation of \(count) bytes")
        let address = try state.withLock { (state) throws(SecureMemoryFailure) -> UInt in
            count <= SlotLayout.largestSlot ? try state.allocateSlot(count) : try state.allocateLarge(count)
        }
        return UnsafeMutableRawPointer(bitPattern: address)!
    }

    /// Checks, wipes and releases an allocation of `count` bytes made by ``allocate(_:)``.
    ///
    /// Traps (the process cannot continue safely) if a canary word or the unused tail of the
    /// slot was overwritten, if `pointer` was not allocated here or is already released, or if
    /// `count` is not the count it was allocated with.
    package func release(_ pointer: UnsafeMutableRawPointer, count: Int) {
        let address = UInt(bitPattern: pointer)
        state.withLock { state in
            if count > 0 && count <= SlotLayout.largestSlot {
                state.releaseSlot(address, count: count)
            } else {
                state.releaseLarge(address, count: count)
            }
        }
    }

    /// Counts of what is mapped and of the system calls made so far.
    package var statistics: SecureMemoryStatistics {
        state.withLock { state in state.statistics }
    }

    /// The limits in force.
    package var configuration: SecureMemoryConfiguration {
        state.withLock { state in state.configuration }
    }

    /// Changes the limits. A lower cap applies to the next mapping (nothing live is taken
    /// away); empty slabs beyond the new policy are unmapped now.
    package func reconfigure(_ configuration: SecureMemoryConfiguration) {
        state.withLock { state in
            state.configuration = configuration
            state.trimEmptySlabs()
        }
    }

    /// The locked, read-write body (between the two guard pages) that holds `pointer`, or nil
    /// if the pool did not allocate it. For tests that inspect the protections.
    package func guardedBody(containing pointer: UnsafeRawPointer) -> Range<UInt>? {
        let address = UInt(bitPattern: pointer)
        return state.withLock { state in state.region(containing: address).map { $0.bodyStart ..< $0.bodyStart + UInt($0.bodyLength) } }
    }
}

/// The pool's books, only touched under its lock.
private struct PoolState: Sendable {
    var configuration: SecureMemoryConfiguration
    var statistics = SecureMemoryStatistics()
    /// Every slab, by the address of its body.
    var slabs: [UInt: Slab] = [:]
    /// Per size class: slabs with a free slot (the last one serves next) and how many are empty.
    var sizeClasses = [SizeClassSlabs](repeating: SizeClassSlabs(), count: SlotLayout.sizeClasses.count)
    /// Every large allocation, by the address handed out.
    var largeAllocations: [UInt: LargeAllocation] = [:]
    /// Regions whose `munmap` failed (see ``GuardedRegion/unmap(counters:)``): wiped, still
    /// guarded and locked, retried whenever empty slabs are trimmed.
    var stranded: [GuardedRegion] = []

    init(configuration: SecureMemoryConfiguration) {
        self.configuration = configuration
    }

    // MARK: Slots

    mutating func allocateSlot(_ count: Int) throws(SecureMemoryFailure) -> UInt {
        let sizeClass = SlotLayout.sizeClassIndex(for: count)
        let layout = SlotLayout.all[sizeClass]
        let slabAddress: UInt
        if let available = sizeClasses[sizeClass].withFreeSlots.last {
            slabAddress = available
            statistics.allocationsFromExistingSlabs += 1
        } else {
            slabAddress = try mapSlab(sizeClass: sizeClass)
        }
        let (slot, freeSlotsLeft) = slabs[slabAddress]!.take()
        if freeSlotsLeft == layout.slotsPerSlab - 1 {
            sizeClasses[sizeClass].emptySlabs -= 1
            statistics.emptySlabs -= 1
        }
        if freeSlotsLeft == 0 { sizeClasses[sizeClass].withFreeSlots.removeLast() }

        let address = layout.slotAddress(slot, slab: slabAddress)
        guard isZero(address, layout.slotLength) else {
            fatalError("secure memory corrupted: a released secret slot was written to after its release")
        }
        statistics.liveSlots += 1
        statistics.allocations += 1
        return address
    }

    mutating func releaseSlot(_ address: UInt, count: Int) {
        let sizeClass = SlotLayout.sizeClassIndex(for: count)
        let layout = SlotLayout.all[sizeClass]
        let slabAddress = address & ~UInt(SlotLayout.slabLength - 1)
        guard let slab = slabs[slabAddress] else {
            fatalError("secure memory: released a pointer that this pool did not allocate")
        }
        guard slab.sizeClass == sizeClass, let slot = layout.slotIndex(of: address, slab: slabAddress) else {
            fatalError("secure memory: released a pointer with a size or address it was not allocated with")
        }
        guard slab.isLive[slot] else { fatalError("secure memory: released a secret slot twice") }
        let canary = Canary.process
        guard canary.isIntact(at: layout.canaryAddress(before: slot, slab: slabAddress)),
            canary.isIntact(at: layout.canaryAddress(before: slot + 1, slab: slabAddress)),
            isZero(address + UInt(count), layout.slotLength - count)
        else {
            fatalError("secure memory corrupted: a canary around a released secret was overwritten (buffer overflow)")
        }
        sodium_memzero(UnsafeMutableRawPointer(bitPattern: address), layout.slotLength)

        let freeSlots = slabs[slabAddress]!.put(slot)
        statistics.liveSlots -= 1
        statistics.releases += 1
        if freeSlots == 1 { sizeClasses[sizeClass].withFreeSlots.append(slabAddress) }
        if freeSlots == layout.slotsPerSlab {
            if sizeClasses[sizeClass].emptySlabs >= configuration.emptySlabsKeptPerSizeClass,
                unmapSlab(slabAddress, sizeClass: sizeClass)
            {
                return
            }
            sizeClasses[sizeClass].emptySlabs += 1
            statistics.emptySlabs += 1
        }
    }

    /// Maps a slab for `sizeClass`, writes its canary words and books it as empty.
    private mutating func mapSlab(sizeClass: Int) throws(SecureMemoryFailure) -> UInt {
        let layout = SlotLayout.all[sizeClass]
        try checkCap(adding: SlotLayout.slabLength)
        let region = try GuardedRegion.map(
            bodyLength: SlotLayout.slabLength, alignment: SlotLayout.slabLength, counters: &statistics)
        for index in 0...layout.slotsPerSlab {
            Canary.process.write(at: layout.canaryAddress(before: index, slab: region.bodyStart))
        }
        slabs[region.bodyStart] = Slab(region: region, sizeClass: sizeClass, slots: layout.slotsPerSlab)
        sizeClasses[sizeClass].withFreeSlots.append(region.bodyStart)
        sizeClasses[sizeClass].emptySlabs += 1
        book(region, sign: 1)
        statistics.slabs += 1
        statistics.emptySlabs += 1
        return region.bodyStart
    }

    /// Unmaps an empty slab that is not counted in `emptySlabs`; false (slab kept) if the
    /// system refused.
    private mutating func unmapSlab(_ slabAddress: UInt, sizeClass: Int) -> Bool {
        guard let slab = slabs[slabAddress], slab.region.unmap(counters: &statistics) else { return false }
        slabs[slabAddress] = nil
        let available = sizeClasses[sizeClass].withFreeSlots
        sizeClasses[sizeClass].withFreeSlots.remove(at: available.lastIndex(of: slabAddress)!)
        book(slab.region, sign: -1)
        statistics.slabs -= 1
        return true
    }

    /// Unmaps empty slabs beyond the policy, and retries stranded regions.
    mutating func trimEmptySlabs() {
        let retried = stranded
        stranded = []
        for region in retried {
            if region.unmap(counters: &statistics) { book(region, sign: -1) } else { stranded.append(region) }
        }
        for sizeClass in sizeClasses.indices {
            let slotsPerSlab = SlotLayout.all[sizeClass].slotsPerSlab
            let empty = sizeClasses[sizeClass].withFreeSlots.filter { slabs[$0]!.freeSlots.count == slotsPerSlab }
            for slabAddress in empty.dropFirst(configuration.emptySlabsKeptPerSizeClass) {
                if unmapSlab(slabAddress, sizeClass: sizeClass) {
                    sizeClasses[sizeClass].emptySlabs -= 1
                    statistics.emptySlabs -= 1
                }
            }
        }
    }

    // MARK: Large allocations

    mutating func allocateLarge(_ count: Int) throws(SecureMemoryFailure) -> UInt {
        let page = GuardedRegion.pageSize
        let (paddedCount, overflow) = count.addingReportingOverflow(15)
        guard !overflow, paddedCount <= configuration.maximumLockedBytes else { throw .capReached }
        let payload = paddedCount & ~15
        let bodyLength = (payload + SlotLayout.canaryLength + page - 1) / page * page
        try checkCap(adding: bodyLength)
        let region = try GuardedRegion.map(bodyLength: bodyLength, alignment: page, counters: &statistics)
        let address = region.bodyStart + UInt(bodyLength - payload)
        Canary.process.write(at: address - UInt(SlotLayout.canaryLength))
        largeAllocations[address] = LargeAllocation(region: region, count: count)
        book(region, sign: 1)
        statistics.liveLargeAllocations += 1
        statistics.allocations += 1
        return address
    }

    mutating func releaseLarge(_ address: UInt, count: Int) {
        guard let allocation = largeAllocations[address], allocation.count == count else {
            fatalError("secure memory: released a pointer with a size or address it was not allocated with")
        }
        let tail = Int(allocation.region.bodyStart) + allocation.region.bodyLength - Int(address) - count
        guard Canary.process.isIntact(at: address - UInt(SlotLayout.canaryLength)),
            isZero(address + UInt(count), tail)
        else {
            fatalError("secure memory corrupted: a canary around a released secret was overwritten (buffer overflow)")
        }
        sodium_memzero(UnsafeMutableRawPointer(bitPattern: address), count)
        largeAllocations[address] = nil
        statistics.liveLargeAllocations -= 1
        statistics.releases += 1
        if allocation.region.unmap(counters: &statistics) {
            book(allocation.region, sign: -1)
        } else {
            stranded.append(allocation.region)
        }
    }

    // MARK: Shared

    private func checkCap(adding bodyLength: Int) throws(SecureMemoryFailure) {
        guard bodyLength <= configuration.maximumLockedBytes - statistics.lockedBytes else { throw .capReached }
    }

    private mutating func book(_ region: GuardedRegion, sign: Int) {
        statistics.mappedBytes += sign * region.mappingLength
        statistics.lockedBytes += sign * region.bodyLength
    }

    func region(containing address: UInt) -> GuardedRegion? {
        if let slab = slabs[address & ~UInt(SlotLayout.slabLength - 1)] { return slab.region }
        return largeAllocations[address]?.region
    }

    /// Wipes and unmaps every region, live or not (the pool is going away).
    mutating func unmapEverything() {
        let regions = slabs.values.map(\.region) + largeAllocations.values.map(\.region) + stranded
        for region in regions {
            sodium_memzero(region.bodyPointer, region.bodyLength)
            _ = region.unmap(counters: &statistics)
        }
    }
}

/// One slab's free slots and which slots are live.
private struct Slab: Sendable {
    let region: GuardedRegion
    let sizeClass: Int
    /// Free slot indices; the last is handed out next (lowest addresses first in a new slab).
    private(set) var freeSlots: [UInt16]
    /// Whether each slot is handed out, so that a double release is caught.
    private(set) var isLive: [Bool]

    init(region: GuardedRegion, sizeClass: Int, slots: Int) {
        self.region = region
        self.sizeClass = sizeClass
        freeSlots = (0..<slots).reversed().map { UInt16($0) }
        isLive = [Bool](repeating: false, count: slots)
    }

    /// Takes a free slot; returns it and how many free slots are left.
    mutating func take() -> (slot: Int, freeSlotsLeft: Int) {
        let slot = Int(freeSlots.removeLast())
        isLive[slot] = true
        return (slot, freeSlots.count)
    }

    /// Returns a live slot; returns how many slots are free now.
    mutating func put(_ slot: Int) -> Int {
        isLive[slot] = false
        freeSlots.append(UInt16(slot))
        return freeSlots.count
    }
}

/// Size-class bookkeeping.
private struct SizeClassSlabs: Sendable {
    /// Bodies of this class's slabs with at least one free slot.
    var withFreeSlots: [UInt] = []
    /// How many of them are empty.
    var emptySlabs = 0
}

/// A large secret's own region.
private struct LargeAllocation: Sendable {
    let region: GuardedRegion
    let count: Int
}

/// Whether `length` bytes at `address` are all zero (not constant time: for zero checks of
/// memory that should hold no secret).
private func isZero(_ address: UInt, _ length: Int) -> Bool {
    guard length > 0 else { return true }
    let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: length)
    var accumulated: UInt64 = 0
    var offset = 0
    while offset + 8 <= length {
        accumulated |= bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
    }
    while offset < length {
        accumulated |= UInt64(bytes[offset])
        offset += 1
    }
    return accumulated == 0
}
