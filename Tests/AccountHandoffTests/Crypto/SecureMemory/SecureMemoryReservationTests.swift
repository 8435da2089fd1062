import Foundation
import Testing
@testable import AccountHandoff

/// Reservations (Spec 8.5): a reservation maps what it needs when it is made or fails with
/// nothing set aside; its draws never map; no allocation without it takes its slots; its slots
/// come back to it until it ends, and then to the pool. Every test uses a pool of its own.
@Suite struct SecureMemoryReservationTests {
    private static let slab = 64 * 1024
    private static let slotsOf32 = (slab - 16) / (32 + 16)
    private static let slotsOf1024 = (slab - 16) / (1024 + 16)
    /// The index of a size class in `slotsPerSizeClass` and the usage arrays.
    private static func index(_ slotLength: Int) -> Int { SlotLayout.sizeClasses.firstIndex(of: slotLength)! }

    private static func pool(slabs: Int, keepingEmpty kept: Int = 1) -> SecureMemoryPool {
        SecureMemoryPool(configuration: .init(maximumLockedBytes: slabs * slab, emptySlabsKeptPerSizeClass: kept))
    }

    @Test func theDemandOfMomentsIsThePeakOfEachSizeClass() {
        let demand = SecureMemoryDemand(moments: [[32, 32, 1], [64, 32], [1000, 1022], [32, 32, 32, 4096]])
        #expect(demand.slotsPerSizeClass == [3, 1, 0, 0, 0, 2, 0, 1])
        #expect(demand.totalSlots == 7)
        #expect(demand.slabBytes == 3 * 48 + 80 + 2 * 1040 + 4112)
        #expect(demand.description == "32 x 3, 64 x 1, 1024 x 2, 4096 x 1")
        #expect(SecureMemoryDemand.none.totalSlots == 0)
    }

    @Test func aReservationMapsItsSlabsAtOnceAndItsDrawsMapNothing() throws {
        let pool = Self.pool(slabs: 8)
        let reservation = try pool.reserve(SecureMemoryDemand(moments: [[32, 32, 1024]]))
        let reserved = pool.statistics
        #expect(reserved.slabs == 2 && reserved.openReservations == 1 && reserved.reservedSlots == 3)
        let drawn = [try pool.allocate(32, drawingFrom: reservation), try pool.allocate(20, drawingFrom: reservation),
                     try pool.allocate(1000, drawingFrom: reservation)]
        #expect(pool.statistics.mmapCalls == reserved.mmapCalls)
        #expect(pool.statistics.reservedSlots == 0)
        #expect(drawn.allSatisfy { $0.reservationID == reservation.id })
        #expect(reservation.usage.drawn[Self.index(32)] == 2 && reservation.usage.drawn[Self.index(1024)] == 1)
        #expect(reservation.usage.overdrafts == 0)
        // A fourth secret has no reserved slot: it is an overdraft, from the shared slots.
        let extra = try pool.allocate(32, drawingFrom: reservation)
        #expect(extra.reservationID == 0 && reservation.usage.overdrafts == 1 && pool.statistics.overdrafts == 1)
        (drawn + [extra]).forEach(pool.release)
        #expect(reservation.usage.drawn == [Int](repeating: 0, count: 8))
        #expect(reservation.usage.peakDrawn[Self.index(32)] == 2)
        #expect(pool.statistics.reservedSlots == 3)
    }

    @Test func allocationsWithoutTheReservationNeverTakeItsSlots() throws {
        let pool = Self.pool(slabs: 1)
        let reservation = try pool.reserve(SecureMemoryDemand(moments: [[Int](repeating: 32, count: Self.slotsOf32)]))
        // The only slab the cap allows is all reserved: an allocation without the reservation needs another.
        #expect(throws: SecureMemoryFailure.capReached) { _ = try pool.allocate(32) }
        var drawn: [GuardedAllocation] = []
        for _ in 0..<Self.slotsOf32 { drawn.append(try pool.allocate(32, drawingFrom: reservation)) }
        #expect(reservation.usage.overdrafts == 0 && pool.statistics.liveSlots == Self.slotsOf32)
        drawn.forEach(pool.release)
        reservation.end()
        let shared = try pool.allocate(32)  // the slots are the pool's again
        pool.release(shared, count: 32)
    }

    /// Even the empty slabs the policy would keep: they would hold the lock budget that a
    /// smaller reservation could use.
    @Test func aRefusedReservationSetsNothingAsideAndUnmapsWhatItMapped() throws {
        let pool = Self.pool(slabs: 1, keepingEmpty: 1)
        #expect(throws: SecureMemoryFailure.capReached) {
            _ = try pool.reserve(SecureMemoryDemand(moments: [[32, 1024]]))
        }
        let statistics = pool.statistics
        #expect(statistics.openReservations == 0 && statistics.reservedSlots == 0 && statistics.refusedReservations == 1)
        #expect(statistics.slabs == 0 && statistics.lockedBytes == 0)
        // The slab the refused reservation mapped and gave back is free for anyone.
        let slot = try pool.allocate(32)
        pool.release(slot, count: 32)
    }

    @Test func aReleasedSlotGoesBackToItsReservationUntilItEnds() throws {
        let pool = Self.pool(slabs: 4)
        let reservation = try pool.reserve(SecureMemoryDemand(moments: [[32]]))
        let first = try pool.allocate(32, drawingFrom: reservation)
        pool.release(first)
        #expect(pool.statistics.reservedSlots == 1)
        let second = try pool.allocate(32, drawingFrom: reservation)
        #expect(second.reservationID == reservation.id && reservation.usage.overdrafts == 0)
        reservation.end()
        reservation.end()  // idempotent
        #expect(reservation.usage.isEnded && pool.statistics.openReservations == 0 && pool.statistics.reservedSlots == 0)
        // Drawn before the end, released after it: the slot goes to the pool, not back to the reservation.
        pool.release(second)
        #expect(pool.statistics.reservedSlots == 0 && pool.statistics.liveSlots == 0)
        #expect(reservation.usage.drawn[Self.index(32)] == 0)
        // Bound to an ended reservation, an allocation is an ordinary one and no overdraft.
        let after = try pool.allocate(32, drawingFrom: reservation)
        #expect(after.reservationID == 0 && reservation.usage.overdrafts == 0)
        pool.release(after)
    }

    @Test func aRequestTakesALargerReservedSlotWhenItsOwnClassIsDrawn() throws {
        let pool = Self.pool(slabs: 4)
        let reservation = try pool.reserve(SecureMemoryDemand(moments: [[32, 1022]]))
        let small = try pool.allocate(10, drawingFrom: reservation)
        let larger = try pool.allocate(10, drawingFrom: reservation)
        let none = try pool.allocate(10, drawingFrom: reservation)
        #expect(reservation.usage.drawn[Self.index(32)] == 1 && reservation.usage.drawn[Self.index(1024)] == 1)
        #expect(reservation.usage.overdrafts == 1 && none.reservationID == 0)
        // The larger slot is released as one of its class; its bytes past the ten are still checked.
        #expect(larger.releaseCount == 513 && small.releaseCount == 10)
        larger.pointer.initializeMemory(as: UInt8.self, repeating: 0xA5, count: 10)
        [small, larger, none].forEach(pool.release)
        #expect(pool.statistics.reservedSlots == 2 && pool.statistics.liveSlots == 0)
    }

    @Test(arguments: [0, 1])
    func endingAReservationUnmapsTheSlabsOnlyItNeeded(keptEmpty: Int) throws {
        let pool = Self.pool(slabs: 8, keepingEmpty: keptEmpty)
        let reservation = try pool.reserve(SecureMemoryDemand(moments: [[Int](repeating: 1024, count: Self.slotsOf1024 + 1)]))
        #expect(pool.statistics.slabs == 2 && pool.statistics.emptySlabs == 2)
        // An ordinary slot from a slab the reservation needs: released, the slab stays mapped
        // whatever the policy, as the reserved slots need it.
        let shared = try pool.allocate(1024)
        #expect(pool.statistics.slabs == 2 && pool.statistics.emptySlabs == 1)
        pool.release(shared, count: 1024)
        #expect(pool.statistics.slabs == 2 && pool.statistics.emptySlabs == 2)
        reservation.end()
        #expect(pool.statistics.slabs == keptEmpty && pool.statistics.emptySlabs == keptEmpty)
    }

    @Test func droppingTheLastReferenceEndsTheReservation() throws {
        let pool = Self.pool(slabs: 4)
        func reserveAndDrop() throws { _ = try pool.reserve(SecureMemoryDemand(moments: [[32, 64]])) }
        try reserveAndDrop()
        #expect(pool.statistics.openReservations == 0 && pool.statistics.reservedSlots == 0)
    }

    /// Many holders drawing, releasing and ending in a shuffled order, as pending sessions do:
    /// none ever overdraws, and when all ended only the kept empty slabs remain.
    @Test func interleavedReservationsNeverOverdrawAndLeaveOnlyTheKeptSlabs() throws {
        let pool = Self.pool(slabs: 64)
        // At most three secrets live, at most two of them longer than 64 bytes.
        let demand = SecureMemoryDemand(moments: [[32, 32, 32], [64], [1022, 1022]])
        var generator = SplitMix64(seed: 42)
        var holders: [(SecureMemoryReservation, [GuardedAllocation])] = []
        for round in 0..<2_000 {
            switch generator.next() % 4 {
            case 0 where holders.count < 300:
                holders.append((try pool.reserve(demand), []))
            case 1 where !holders.isEmpty:
                let index = Int(generator.next() % UInt64(holders.count))
                let sizes = [1, 32, 64, 1000, 1022]
                let size = sizes[Int(generator.next() % UInt64(sizes.count))]
                let live = holders[index].1.map(\.releaseCount)
                if live.count < 3, size <= 64 || live.filter({ $0 > 64 }).count < 2 {
                    holders[index].1.append(try pool.allocate(size, drawingFrom: holders[index].0))
                }
            case 2 where !holders.isEmpty:
                let index = Int(generator.next() % UInt64(holders.count))
                if let allocation = holders[index].1.popLast() { pool.release(allocation) }
            case 3 where !holders.isEmpty:
                let index = Int(generator.next() % UInt64(holders.count))
                let (reservation, live) = holders.remove(at: index)
                #expect(reservation.usage.overdrafts == 0, "round \(round)")
                reservation.end()
                live.forEach(pool.release)
            default:
                break
            }
        }
        for (reservation, live) in holders {
            #expect(reservation.usage.overdrafts == 0)
            reservation.end()
            live.forEach(pool.release)
        }
        let statistics = pool.statistics
        #expect(statistics.overdrafts == 0 && statistics.liveSlots == 0 && statistics.reservedSlots == 0)
        #expect(statistics.openReservations == 0 && statistics.slabs == statistics.emptySlabs && statistics.slabs <= 3)
    }
}

/// A small seeded generator, so the interleaving is the same on every run.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
