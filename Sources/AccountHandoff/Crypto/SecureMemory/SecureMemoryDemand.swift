/// How many slots of each size class one holder of guarded memory (a handoff session) can
/// hold at once, from its start to its end: what a ``SecureMemoryReservation`` sets aside.
///
/// It is built from the holder's busiest moments, each the byte counts of the guarded
/// allocations live together at that point; a size class needs as many slots as its busiest
/// moment holds. A request draws a slot of its own size class, or, when those are all drawn,
/// one of the next larger class that has one left, so an allocation whose length varies (a
/// password) is covered by listing its longest length.
package struct SecureMemoryDemand: Hashable, Sendable, CustomStringConvertible {
    /// Slots per size class, in the order of the pool's size classes (32, 64, ... 4096 bytes).
    package let slotsPerSizeClass: [Int]

    /// The demand of a holder whose busiest moments are `moments`.
    ///
    /// - Precondition: every byte count is 1 ... 4096 (the largest slot); longer secrets get a
    ///   mapping of their own, which no reservation covers.
    package init(moments: [[Int]]) {
        var slots = [Int](repeating: 0, count: SlotLayout.sizeClasses.count)
        for moment in moments {
            var live = [Int](repeating: 0, count: slots.count)
            for count in moment {
                precondition(count > 0 && count <= SlotLayout.largestSlot, "a reservation covers slots of 1 to 4096 bytes")
                live[SlotLayout.sizeClassIndex(for: count)] += 1
            }
            slots = zip(slots, live).map { max($0, $1) }
        }
        slotsPerSizeClass = slots
    }

    /// A demand of nothing: a holder that draws no slot.
    package static let none = SecureMemoryDemand(moments: [])

    /// The slots of the size class that holds `count` bytes.
    package func slots(forByteCount count: Int) -> Int {
        slotsPerSizeClass[SlotLayout.sizeClassIndex(for: count)]
    }

    /// All slots, every size class together.
    package var totalSlots: Int { slotsPerSizeClass.reduce(0, +) }

    /// Bytes of slab body the slots occupy, each with the canary word that follows it: what one
    /// more holder adds to the locked memory of a pool whose slabs it shares with many.
    package var slabBytes: Int {
        zip(slotsPerSizeClass, SlotLayout.all).reduce(0) { $0 + $1.0 * $1.1.stride }
    }

    /// `32 x 13, 64 x 1, 1024 x 2`: the non-zero classes.
    package var description: String {
        zip(SlotLayout.sizeClasses, slotsPerSizeClass).filter { $0.1 > 0 }.map { "\($0.0) x \($0.1)" }.joined(separator: ", ")
    }
}
