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
///   most a configured number of empty slabs beyond what reservations need; emptier ones are
///   unmapped at once.
/// - A session reserves, when it starts, every slot it can hold at once until it ends
///   (``reserve(_:)``, ``SecureMemoryReservation``): the slabs are mapped then, so that none of
///   its later allocations can be refused (Spec 8.5). Allocations without a reservation never
///   take the reserved slots.
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
            count <= SlotLayout.largestSlot ? try state.allocateSlot(count).address : try state.allocateLarge(count)
        }
        return UnsafeMutableRawPointer(bitPattern: address)!
    }

    /// Sets aside the slots of `demand` (``SecureMemoryReservation``), mapping the slabs they
    /// need now.
    ///
    /// - Throws: ``SecureMemoryFailure`` when the cap is reached or the system refuses to map,
    ///   guard or lock a slab; nothing is set aside then.
    package func reserve(_ demand: SecureMemoryDemand) throws(SecureMemoryFailure) -> SecureMemoryReservation {
        let id = try state.withLock { (state) throws(SecureMemoryFailure) -> UInt64 in try state.reserve(demand) }
        return SecureMemoryReservation(pool: self, id: id, demand: demand)
    }

    /// Returns `count` (at least 1) zero bytes of guarded, locked memory, 16-byte aligned,
    /// drawn from `reservation` when it has a slot left for them (see ``SecureMemoryReservation``).
    ///
    /// - Throws: ``SecureMemoryFailure`` when the reservation has no slot left and the pool
    ///   cannot provide one either.
    package func allocate(_ count: Int, drawingFrom reservation: SecureMemoryReservation?) throws(SecureMemoryFailure) -> GuardedAllocation {
        precondition(count > 0, "secure memory: allocation of \(count) bytes")
        precondition(reservation.map { $0.pool === self } ?? true, "secure memory: a reservation of another pool")
        let id = reservation?.id ?? 0
        let (address, releaseCount, drawnFrom) = try state.withLock { (state) throws(SecureMemoryFailure) -> (UInt, Int, UInt64) in
            guard count <= SlotLayout.largestSlot else {
                if id != 0 { state.noteOverdraft(id) }
                return (try state.allocateLarge(count), count, 0)
            }
            let slot = try state.allocateSlot(count, reservation: id)
            // A slot of a larger class is released with a count of that class (the bytes past
            // `count` are never written, so they are still checked to be zero).
            let releaseCount = slot.sizeClass == 0 ? count : max(count, SlotLayout.sizeClasses[slot.sizeClass - 1] + 1)
            return (slot.address, releaseCount, slot.drawn ? id : 0)
        }
        return GuardedAllocation(pointer: UnsafeMutableRawPointer(bitPattern: address)!, releaseCount: releaseCount,
                                 reservationID: drawnFrom)
    }

    /// Checks, wipes and releases an allocation made by ``allocate(_:drawingFrom:)``; a slot
    /// drawn from a reservation goes back to it while it is open.
    package func release(_ allocation: GuardedAllocation) {
        let address = UInt(bitPattern: allocation.pointer)
        let count = allocation.releaseCount
        state.withLock { state in
            if count <= SlotLayout.largestSlot {
                state.releaseSlot(address, count: count, reservation: allocation.reservationID)
            } else {
                state.releaseLarge(address, count: count)
            }
        }
    }

    func endReservation(_ id: UInt64) {
        guard id != 0 else { return }
        state.withLock { state in state.endReservation(id) }
    }

    func forgetReservation(_ id: UInt64) {
        guard id != 0 else { return }
        state.withLock { state in state.forgetReservation(id) }
    }

    func usage(ofReservation id: UInt64) -> SecureMemoryReservationUsage {
        state.withLock { state in state.usage(ofReservation: id) }
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
