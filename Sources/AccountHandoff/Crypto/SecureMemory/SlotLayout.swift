/// How a slab of one size class is cut into slots, with a canary word before and after each.
///
/// A slab body is `slabLength` bytes, aligned to `slabLength` so that a slot's slab is found by
/// masking its address. It holds `canary, slot 0, canary, slot 1, …, slot n-1, canary`: every
/// slot starts 16-byte aligned and is enclosed by two canary words (neighbours share one).
struct SlotLayout: Sendable {
    /// Slot sizes in bytes; a request takes the smallest that fits.
    static let sizeClasses = [32, 64, 128, 256, 512, 1024, 2048, 4096]
    /// The largest slot; longer secrets get a mapping of their own.
    static let largestSlot = 4096
    /// Length (and alignment) of a slab body: 16 pages of 4 KiB, 4 of Apple silicon's 16 KiB.
    static let slabLength = 64 * 1024
    /// Length of one canary word.
    static let canaryLength = Canary.length

    /// The layout of every size class, in the order of ``sizeClasses``.
    static let all: [SlotLayout] = sizeClasses.map(SlotLayout.init(slotLength:))

    /// The index into ``all`` of the size class for `count` bytes (1 ... ``largestSlot``).
    static func sizeClassIndex(for count: Int) -> Int {
        // 1...32 -> 0, 33...64 -> 1, …: the bit length of count - 1, less 5.
        max(0, Int.bitWidth - (count - 1).leadingZeroBitCount - 5)
    }

    /// Bytes in one slot.
    let slotLength: Int
    /// Distance between two slots (a slot and the canary word that follows it).
    let stride: Int
    /// Slots in one slab.
    let slotsPerSlab: Int

    private init(slotLength: Int) {
        self.slotLength = slotLength
        stride = slotLength + Self.canaryLength
        slotsPerSlab = (Self.slabLength - Self.canaryLength) / stride
    }

    /// The address of the canary word in front of slot `index` (`index == slotsPerSlab` gives
    /// the one after the last slot).
    func canaryAddress(before index: Int, slab: UInt) -> UInt { slab + UInt(index * stride) }

    /// The address of slot `index`.
    func slotAddress(_ index: Int, slab: UInt) -> UInt { canaryAddress(before: index, slab: slab) + UInt(Self.canaryLength) }

    /// The index of the slot that starts at `address`, or nil if no slot starts there.
    func slotIndex(of address: UInt, slab: UInt) -> Int? {
        guard address >= slab + UInt(Self.canaryLength) else { return nil }
        let offset = Int(address - slab) - Self.canaryLength
        guard offset % stride == 0, offset / stride < slotsPerSlab else { return nil }
        return offset / stride
    }
}
