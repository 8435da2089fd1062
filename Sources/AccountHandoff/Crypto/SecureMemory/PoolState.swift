internal import CSodium

/// The books of a ``SecureMemoryPool``, only touched under its lock.
///
/// Everything lives outside the slabs, so an overflow in a slab cannot rewrite it, and in
/// flat arrays of plain values, so the hot paths do no reference counting: slab records by
/// number, each slab's stack of free slot numbers and its bitmap of live slots in shared
/// arrays at the slab's offset, and per size class a linked list of slabs with a free slot.
struct PoolState: Sendable {
    var configuration: SecureMemoryConfiguration
    var statistics = SecureMemoryStatistics()

    private static let maximumSlots = SlotLayout.all[0].slotsPerSlab
    private static let bitmapWords = (maximumSlots + 63) / 64

    /// Slab records by slab number; numbers of unmapped slabs are reused.
    private var slabs: [SlabRecord] = []
    private var unusedSlabNumbers: [Int32] = []
    /// Slab number `n`'s free slot numbers are `freeSlots[n * maximumSlots ..< n * maximumSlots + freeCount]`.
    private var freeSlots: [UInt16] = []
    /// Slab number `n`'s live-slot bits are `liveBits[n * bitmapWords ..< (n + 1) * bitmapWords]`.
    private var liveBits: [UInt64] = []
    /// Slab numbers by body address.
    private var slabNumbers = SlabTable()
    /// Per size class: the first slab with a free slot (-1: none) and how many slabs are empty.
    private var sizeClasses = [SizeClassSlabs](repeating: SizeClassSlabs(), count: SlotLayout.sizeClasses.count)
    /// Every large allocation, by the address handed out.
    private var largeAllocations: [UInt: LargeAllocation] = [:]
    /// Regions whose `munmap` failed (see ``GuardedRegion/unmap(counters:)``): wiped, still
    /// guarded and locked, retried whenever empty slabs are trimmed.
    private var stranded: [GuardedRegion] = []

    init(configuration: SecureMemoryConfiguration) {
        self.configuration = configuration
    }

    // MARK: Slots

    mutating func allocateSlot(_ count: Int) throws(SecureMemoryFailure) -> UInt {
        let sizeClass = SlotLayout.sizeClassIndex(for: count)
        let layout = SlotLayout.all[sizeClass]
        var number = sizeClasses[sizeClass].firstAvailable
        if number >= 0 {
            statistics.allocationsFromExistingSlabs += 1
        } else {
            number = try mapSlab(sizeClass: sizeClass)
        }
        let slab = Int(number)
        let freeLeft = slabs[slab].freeCount - 1
        let slot = Int(freeSlots[slab * Self.maximumSlots + freeLeft])
        slabs[slab].freeCount = freeLeft
        liveBits[slab * Self.bitmapWords + slot / 64] |= 1 << UInt64(slot % 64)
        if freeLeft == layout.slotsPerSlab - 1 {
            sizeClasses[sizeClass].emptySlabs -= 1
            statistics.emptySlabs -= 1
        }
        if freeLeft == 0 { unlinkAvailable(number) }

        let address = layout.slotAddress(slot, slab: slabs[slab].region.bodyStart)
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
        let body = address & ~UInt(SlotLayout.slabLength - 1)
        guard let number = slabNumbers.value(for: body) else {
            fatalError("secure memory: released a pointer that this pool did not allocate")
        }
        let slab = Int(number)
        guard slabs[slab].sizeClass == sizeClass, let slot = layout.slotIndex(of: address, slab: body) else {
            fatalError("secure memory: released a pointer with a size or address it was not allocated with")
        }
        let bit: UInt64 = 1 << UInt64(slot % 64)
        let word = slab * Self.bitmapWords + slot / 64
        guard liveBits[word] & bit != 0 else { fatalError("secure memory: released a secret slot twice") }
        let canary = Canary.process
        guard canary.isIntact(at: layout.canaryAddress(before: slot, slab: body)),
            canary.isIntact(at: layout.canaryAddress(before: slot + 1, slab: body)),
            isZero(address + UInt(count), layout.slotLength - count)
        else {
            fatalError("secure memory corrupted: a canary around a released secret was overwritten (buffer overflow)")
        }
        sodium_memzero(UnsafeMutableRawPointer(bitPattern: address), layout.slotLength)

        liveBits[word] &= ~bit
        let freeCount = slabs[slab].freeCount
        freeSlots[slab * Self.maximumSlots + freeCount] = UInt16(slot)
        slabs[slab].freeCount = freeCount + 1
        statistics.liveSlots -= 1
        statistics.releases += 1
        if freeCount == 0 { linkAvailable(number) }
        if freeCount + 1 == layout.slotsPerSlab {
            if sizeClasses[sizeClass].emptySlabs >= configuration.emptySlabsKeptPerSizeClass, unmapSlab(number) {
                return
            }
            sizeClasses[sizeClass].emptySlabs += 1
            statistics.emptySlabs += 1
        }
    }

    /// Maps a slab for `sizeClass`, writes its canary words and books it as empty and available.
    private mutating func mapSlab(sizeClass: Int) throws(SecureMemoryFailure) -> Int32 {
        let layout = SlotLayout.all[sizeClass]
        try checkCap(adding: SlotLayout.slabLength)
        let region = try GuardedRegion.map(
            bodyLength: SlotLayout.slabLength, alignment: SlotLayout.slabLength, counters: &statistics)
        for index in 0...layout.slotsPerSlab {
            Canary.process.write(at: layout.canaryAddress(before: index, slab: region.bodyStart))
        }
        let record = SlabRecord(region: region, sizeClass: sizeClass, freeCount: layout.slotsPerSlab)
        let number: Int32
        if let reused = unusedSlabNumbers.popLast() {
            number = reused
            slabs[Int(number)] = record
        } else {
            number = Int32(slabs.count)
            slabs.append(record)
            freeSlots.append(contentsOf: repeatElement(0, count: Self.maximumSlots))
            liveBits.append(contentsOf: repeatElement(0, count: Self.bitmapWords))
        }
        let base = Int(number) * Self.maximumSlots
        // Slot 0 on top of the stack: a new slab fills from its lowest address.
        for index in 0..<layout.slotsPerSlab { freeSlots[base + index] = UInt16(layout.slotsPerSlab - 1 - index) }
        slabNumbers.insert(region.bodyStart, number)
        linkAvailable(number)
        sizeClasses[sizeClass].emptySlabs += 1
        book(region, sign: 1)
        statistics.slabs += 1
        statistics.emptySlabs += 1
        return number
    }

    /// Unmaps an empty slab that is not counted in `emptySlabs`; false (slab kept) if the
    /// system refused.
    private mutating func unmapSlab(_ number: Int32) -> Bool {
        let region = slabs[Int(number)].region
        guard region.unmap(counters: &statistics) else { return false }
        unlinkAvailable(number)
        slabNumbers.remove(region.bodyStart)
        slabs[Int(number)].isMapped = false
        unusedSlabNumbers.append(number)
        book(region, sign: -1)
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
            var kept = 0
            var number = sizeClasses[sizeClass].firstAvailable
            while number >= 0 {
                let next = slabs[Int(number)].nextAvailable
                if slabs[Int(number)].freeCount == slotsPerSlab {
                    if kept < configuration.emptySlabsKeptPerSizeClass {
                        kept += 1
                    } else if unmapSlab(number) {
                        sizeClasses[sizeClass].emptySlabs -= 1
                        statistics.emptySlabs -= 1
                    }
                }
                number = next
            }
        }
    }

    /// Puts a slab first in its size class's list of slabs with a free slot.
    private mutating func linkAvailable(_ number: Int32) {
        let sizeClass = slabs[Int(number)].sizeClass
        let first = sizeClasses[sizeClass].firstAvailable
        slabs[Int(number)].previousAvailable = -1
        slabs[Int(number)].nextAvailable = first
        if first >= 0 { slabs[Int(first)].previousAvailable = number }
        sizeClasses[sizeClass].firstAvailable = number
    }

    /// Takes a slab out of its size class's list of slabs with a free slot.
    private mutating func unlinkAvailable(_ number: Int32) {
        let record = slabs[Int(number)]
        if record.previousAvailable >= 0 {
            slabs[Int(record.previousAvailable)].nextAvailable = record.nextAvailable
        } else {
            sizeClasses[record.sizeClass].firstAvailable = record.nextAvailable
        }
        if record.nextAvailable >= 0 { slabs[Int(record.nextAvailable)].previousAvailable = record.previousAvailable }
        slabs[Int(number)].previousAvailable = -1
        slabs[Int(number)].nextAvailable = -1
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
        // The secret ends at the trailing guard page (up to 15 bytes of checked zeros before it).
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
        let tail = Int(allocation.region.bodyStart + UInt(allocation.region.bodyLength) - address) - count
        guard Canary.process.isIntact(at: address - UInt(SlotLayout.canaryLength)), isZero(address + UInt(count), tail)
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

    /// The region that holds `address` (a slot or a large allocation's start), if any.
    func region(containing address: UInt) -> GuardedRegion? {
        if let number = slabNumbers.value(for: address & ~UInt(SlotLayout.slabLength - 1)) {
            return slabs[Int(number)].region
        }
        return largeAllocations[address]?.region
    }

    /// Wipes and unmaps every region, live or not (the pool is going away).
    mutating func unmapEverything() {
        let regions = slabs.filter(\.isMapped).map(\.region) + largeAllocations.values.map(\.region) + stranded
        for region in regions {
            sodium_memzero(region.bodyPointer, region.bodyLength)
            _ = region.unmap(counters: &statistics)
        }
    }
}

/// One slab's record: its region, size class, free-slot count and place in the list of its
/// class's slabs with a free slot.
private struct SlabRecord: Sendable {
    let region: GuardedRegion
    let sizeClass: Int
    var freeCount: Int
    var previousAvailable: Int32 = -1
    var nextAvailable: Int32 = -1
    var isMapped = true

    init(region: GuardedRegion, sizeClass: Int, freeCount: Int) {
        self.region = region
        self.sizeClass = sizeClass
        self.freeCount = freeCount
    }
}

/// Size-class bookkeeping.
private struct SizeClassSlabs: Sendable {
    /// The first slab of this class with a free slot, or -1.
    var firstAvailable: Int32 = -1
    /// How many of this class's slabs are empty.
    var emptySlabs = 0
}

/// A large secret's own region.
private struct LargeAllocation: Sendable {
    let region: GuardedRegion
    let count: Int
}

/// Whether `length` bytes at `address` are all zero (not constant time: only for memory that
/// should hold no secret).
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
