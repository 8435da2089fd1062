internal import CSodium

/// The books of a ``SecureMemoryPool``, only touched under its lock.
///
/// Everything lives outside the slabs, so an overflow in a slab cannot rewrite it, and in
/// flat arrays of plain values, so the hot paths do no reference counting: slab records by
/// number, each slab's stack of free slot numbers and its bitmap of live slots in shared
/// arrays at the slab's offset, and per size class a linked list of slabs with a free slot and
/// one of empty slabs.
///
/// Reservations (``SecureMemoryReservation``) are counts, not particular slots: per size class
/// the pool keeps at least as many free slots mapped as the open reservations hold undrawn
/// (`freeSlots >= reservedSlots`, checked wherever either changes). An allocation without a
/// reservation only takes a free slot beyond those, and maps a slab otherwise; an empty slab
/// is unmapped only when the reserved slots do not need it.
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
    /// Per size class: the lists of slabs with a free slot and of empty slabs, and the counts.
    private var sizeClasses = [SizeClassSlabs](repeating: SizeClassSlabs(), count: SlotLayout.sizeClasses.count)
    /// Every large allocation, by the address handed out.
    private var largeAllocations: [UInt: LargeAllocation] = [:]
    /// Regions whose `munmap` failed (see ``GuardedRegion/unmap(counters:)``): wiped, still
    /// guarded and locked, retried whenever empty slabs are trimmed.
    private var stranded: [GuardedRegion] = []
    /// Reservations from ``reserve(_:)`` until their value is released (ended ones keep their
    /// usage for tests), at the index in the low 32 bits of their number; the bits above count
    /// reservations (2^32 of them before a number could come back), so a slot released after
    /// its reservation is gone cannot credit another. Records are plain values changed in place: serving an
    /// allocation neither allocates nor retains.
    private var reservations: [ReservationRecord?] = []
    private var unusedReservationIndices: [Int] = []
    private var reservationSerial: UInt64 = 1

    init(configuration: SecureMemoryConfiguration) {
        self.configuration = configuration
    }

    // MARK: Reservations

    /// Sets `demand` aside: maps slabs until every size class has as many free slots as the
    /// open reservations hold. When a mapping fails, nothing is set aside, the slabs mapped for
    /// it are unmapped again (kept empty slabs would hold the lock budget that a smaller
    /// reservation could use) and the failure is thrown.
    mutating func reserve(_ demand: SecureMemoryDemand) throws(SecureMemoryFailure) -> UInt64 {
        let slots = demand.slotsPerSizeClass
        for sizeClass in slots.indices { sizeClasses[sizeClass].reservedSlots += slots[sizeClass] }
        var mapped: [Int32] = []
        do {
            // The largest classes first: they need the most slabs per slot.
            for sizeClass in slots.indices.reversed() {
                while sizeClasses[sizeClass].freeSlots < sizeClasses[sizeClass].reservedSlots {
                    mapped.append(try mapSlab(sizeClass: sizeClass))
                }
            }
        } catch {
            for sizeClass in slots.indices { sizeClasses[sizeClass].reservedSlots -= slots[sizeClass] }
            // Nothing drew from them (all of this runs under the pool's lock): they are empty. One
            // the system refuses to unmap stays mapped as an empty slab.
            for number in mapped { _ = unmapSlab(number) }
            statistics.refusedReservations += 1
            throw error
        }
        let index: Int
        if let unused = unusedReservationIndices.popLast() {
            index = unused
        } else {
            index = reservations.count
            reservations.append(nil)
        }
        let id = reservationSerial << 32 | UInt64(index)
        reservationSerial += 1
        reservations[index] = ReservationRecord(id: id, held: SizeClassCounts(slots))
        statistics.openReservations += 1
        statistics.reservedSlots += demand.totalSlots
        return id
    }

    /// Hands the slots `id` has not drawn back; later releases of its drawn slots go to the pool.
    mutating func endReservation(_ id: UInt64) {
        guard let index = reservationIndex(id), let held = reservations[index]?.end() else { return }
        for sizeClass in 0..<SizeClassCounts.count where held[sizeClass] > 0 {
            sizeClasses[sizeClass].reservedSlots -= held[sizeClass]
            statistics.reservedSlots -= held[sizeClass]
            trimEmptySlabs(sizeClass: sizeClass)
        }
        statistics.openReservations -= 1
    }

    /// Ends `id` if it is open and forgets it.
    mutating func forgetReservation(_ id: UInt64) {
        guard let index = reservationIndex(id) else { return }
        endReservation(id)
        reservations[index] = nil
        unusedReservationIndices.append(index)
    }

    /// An allocation made while `id` was bound that no reservation covers (a large one).
    mutating func noteOverdraft(_ id: UInt64) {
        guard let index = reservationIndex(id), reservations[index]?.noteOverdraft() == true else { return }
        statistics.overdrafts += 1
    }

    /// What `id` has handed out (idle for a number the pool does not know).
    func usage(ofReservation id: UInt64) -> SecureMemoryReservationUsage {
        reservationIndex(id).flatMap { reservations[$0]?.usage } ?? .idle
    }

    /// Where the record of reservation `id` is, if the pool still knows it.
    private func reservationIndex(_ id: UInt64) -> Int? {
        let index = Int(truncatingIfNeeded: id & 0xFFFF_FFFF)
        guard id != 0, index < reservations.count, reservations[index]?.id == id else { return nil }
        return index
    }

    // MARK: Slots

    /// A slot for `count` bytes: drawn from reservation `id` when it is open and has a slot of
    /// that size class or a larger one left, otherwise from the slots no reservation holds.
    mutating func allocateSlot(_ count: Int, reservation id: UInt64 = 0) throws(SecureMemoryFailure) -> (address: UInt, sizeClass: Int, drawn: Bool) {
        let requested = SlotLayout.sizeClassIndex(for: count)
        var draw: ReservationRecord.Draw?
        if let index = reservationIndex(id) { draw = reservations[index]?.draw(atLeast: requested) }
        switch draw {
        case .slot(let sizeClass)?:
            sizeClasses[sizeClass].reservedSlots -= 1
            statistics.reservedSlots -= 1
            statistics.allocationsFromExistingSlabs += 1
            return (takeSlot(sizeClass), sizeClass, true)
        case .overdraft?:
            statistics.overdrafts += 1
        case .ended?, nil:
            break
        }
        if sizeClasses[requested].freeSlots > sizeClasses[requested].reservedSlots {
            statistics.allocationsFromExistingSlabs += 1
        } else {
            _ = try mapSlab(sizeClass: requested)
        }
        return (takeSlot(requested), requested, false)
    }

    /// Takes a free slot of `sizeClass` (one must exist), checks that it is still all zero and
    /// books it as live.
    private mutating func takeSlot(_ sizeClass: Int) -> UInt {
        let layout = SlotLayout.all[sizeClass]
        let number = sizeClasses[sizeClass].firstAvailable
        precondition(number >= 0, "secure memory: no free slot where the books promise one")
        let slab = Int(number)
        let freeLeft = slabs[slab].freeCount - 1
        let slot = Int(freeSlots[slab * Self.maximumSlots + freeLeft])
        slabs[slab].freeCount = freeLeft
        sizeClasses[sizeClass].freeSlots -= 1
        liveBits[slab * Self.bitmapWords + slot / 64] |= 1 << UInt64(slot % 64)
        if freeLeft == layout.slotsPerSlab - 1 {
            unlinkEmpty(number)
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

    /// Checks, wipes and frees the slot at `address` of `count` bytes; its slot goes back to
    /// reservation `id` when that is still open.
    mutating func releaseSlot(_ address: UInt, count: Int, reservation id: UInt64 = 0) {
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
        sizeClasses[sizeClass].freeSlots += 1
        statistics.liveSlots -= 1
        statistics.releases += 1
        if let index = reservationIndex(id), reservations[index]?.giveBack(sizeClass) == true {
            sizeClasses[sizeClass].reservedSlots += 1
            statistics.reservedSlots += 1
        }
        if freeCount == 0 { linkAvailable(number) }
        if freeCount + 1 == layout.slotsPerSlab {
            linkEmpty(number)
            sizeClasses[sizeClass].emptySlabs += 1
            statistics.emptySlabs += 1
            trimEmptySlabs(sizeClass: sizeClass)
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
        linkEmpty(number)
        sizeClasses[sizeClass].emptySlabs += 1
        sizeClasses[sizeClass].freeSlots += layout.slotsPerSlab
        book(region, sign: 1)
        statistics.slabs += 1
        statistics.emptySlabs += 1
        return number
    }

    /// Unmaps an empty slab and takes it off the books; false (slab kept, still empty) if the
    /// system refused.
    private mutating func unmapSlab(_ number: Int32) -> Bool {
        let record = slabs[Int(number)]
        guard record.region.unmap(counters: &statistics) else { return false }
        unlinkAvailable(number)
        unlinkEmpty(number)
        sizeClasses[record.sizeClass].emptySlabs -= 1
        sizeClasses[record.sizeClass].freeSlots -= SlotLayout.all[record.sizeClass].slotsPerSlab
        slabNumbers.remove(record.region.bodyStart)
        slabs[Int(number)].isMapped = false
        unusedSlabNumbers.append(number)
        book(record.region, sign: -1)
        statistics.slabs -= 1
        statistics.emptySlabs -= 1
        return true
    }

    /// Unmaps empty slabs beyond the policy in every size class, and retries stranded regions.
    mutating func trimEmptySlabs() {
        let retried = stranded
        stranded = []
        for region in retried {
            if region.unmap(counters: &statistics) { book(region, sign: -1) } else { stranded.append(region) }
        }
        for sizeClass in sizeClasses.indices { trimEmptySlabs(sizeClass: sizeClass) }
    }

    /// Unmaps empty slabs of `sizeClass` while more are mapped than the policy keeps and the
    /// reserved slots do not need them.
    private mutating func trimEmptySlabs(sizeClass: Int) {
        let slotsPerSlab = SlotLayout.all[sizeClass].slotsPerSlab
        while sizeClasses[sizeClass].emptySlabs > configuration.emptySlabsKeptPerSizeClass,
            sizeClasses[sizeClass].freeSlots - slotsPerSlab >= sizeClasses[sizeClass].reservedSlots
        {
            var number = sizeClasses[sizeClass].firstEmpty
            // A slab the system refused to unmap stays; try the next one.
            while number >= 0, !unmapSlab(number) { number = slabs[Int(number)].nextEmpty }
            if number < 0 { return }
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

    /// Puts a slab first in its size class's list of empty slabs.
    private mutating func linkEmpty(_ number: Int32) {
        let sizeClass = slabs[Int(number)].sizeClass
        let first = sizeClasses[sizeClass].firstEmpty
        slabs[Int(number)].previousEmpty = -1
        slabs[Int(number)].nextEmpty = first
        if first >= 0 { slabs[Int(first)].previousEmpty = number }
        sizeClasses[sizeClass].firstEmpty = number
    }

    /// Takes a slab out of its size class's list of empty slabs.
    private mutating func unlinkEmpty(_ number: Int32) {
        let record = slabs[Int(number)]
        if record.previousEmpty >= 0 {
            slabs[Int(record.previousEmpty)].nextEmpty = record.nextEmpty
        } else {
            sizeClasses[record.sizeClass].firstEmpty = record.nextEmpty
        }
        if record.nextEmpty >= 0 { slabs[Int(record.nextEmpty)].previousEmpty = record.previousEmpty }
        slabs[Int(number)].previousEmpty = -1
        slabs[Int(number)].nextEmpty = -1
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

/// One slab's record: its region, size class, free-slot count and places in the lists of its
/// class's slabs with a free slot and of its empty slabs.
private struct SlabRecord: Sendable {
    let region: GuardedRegion
    let sizeClass: Int
    var freeCount: Int
    var previousAvailable: Int32 = -1
    var nextAvailable: Int32 = -1
    var previousEmpty: Int32 = -1
    var nextEmpty: Int32 = -1
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
    /// The first empty slab of this class, or -1.
    var firstEmpty: Int32 = -1
    /// How many of this class's slabs are empty.
    var emptySlabs = 0
    /// Free slots in this class's mapped slabs.
    var freeSlots = 0
    /// Slots the open reservations hold and have not drawn; never more than `freeSlots`.
    var reservedSlots = 0
}

/// One reservation's books: the slots it holds undrawn per size class, and its usage. Kept
/// inline (no arrays), and changed in place in the pool's table, so serving an allocation
/// allocates nothing on the heap.
private struct ReservationRecord: Sendable {
    /// The reservation's number.
    let id: UInt64
    var held: SizeClassCounts
    var drawn = SizeClassCounts()
    var peakDrawn = SizeClassCounts()
    var overdrafts = 0
    var isEnded = false

    init(id: UInt64, held: SizeClassCounts) {
        self.id = id
        self.held = held
    }

    /// What ``draw(atLeast:)`` gave.
    enum Draw { case slot(Int), overdraft, ended }

    /// Draws a slot of `sizeClass` or the next larger class with one left; an overdraft when
    /// none is left; nothing once ended.
    mutating func draw(atLeast sizeClass: Int) -> Draw {
        guard !isEnded else { return .ended }
        guard let drawnClass = held.firstPositive(from: sizeClass) else {
            overdrafts += 1
            return .overdraft
        }
        held[drawnClass] -= 1
        drawn[drawnClass] += 1
        peakDrawn[drawnClass] = max(peakDrawn[drawnClass], drawn[drawnClass])
        return .slot(drawnClass)
    }

    /// One drawn slot of `sizeClass` released: held again (true) unless the reservation ended.
    mutating func giveBack(_ sizeClass: Int) -> Bool {
        drawn[sizeClass] -= 1
        guard !isEnded else { return false }
        held[sizeClass] += 1
        return true
    }

    /// An allocation no slot covered (true), unless the reservation ended.
    mutating func noteOverdraft() -> Bool {
        guard !isEnded else { return false }
        overdrafts += 1
        return true
    }

    /// Ends the reservation: returns the slots it held undrawn, or nil if it had ended already.
    mutating func end() -> SizeClassCounts? {
        guard !isEnded else { return nil }
        let undrawn = held
        held = SizeClassCounts()
        isEnded = true
        return undrawn
    }

    var usage: SecureMemoryReservationUsage {
        SecureMemoryReservationUsage(drawn: drawn.array, peakDrawn: peakDrawn.array, overdrafts: overdrafts, isEnded: isEnded)
    }
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
