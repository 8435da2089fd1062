/// Finds a slab's number from its body address without hashing through `Hasher` or touching
/// reference counts: an open-addressing table (linear probing, backward-shift deletion) keyed
/// by the 64 KiB-aligned body address.
struct SlabTable: Sendable {
    /// Body addresses; 0 marks a free bucket (no body starts at address 0).
    private var keys = [UInt](repeating: 0, count: 64)
    private var values = [Int32](repeating: -1, count: 64)
    private var count = 0

    private var mask: Int { keys.count - 1 }

    private func home(_ key: UInt) -> Int {
        // Fibonacci hashing of the slab number; the low 16 bits of a body address are zero.
        Int(truncatingIfNeeded: ((key >> 16) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The value stored for `key`, if any.
    func value(for key: UInt) -> Int32? {
        var bucket = home(key)
        while true {
            let stored = keys[bucket]
            if stored == key { return values[bucket] }
            if stored == 0 { return nil }
            bucket = (bucket + 1) & mask
        }
    }

    /// Stores `value` for a `key` that is not in the table.
    mutating func insert(_ key: UInt, _ value: Int32) {
        precondition(key != 0)
        if 2 * (count + 1) > keys.count { grow() }
        var bucket = home(key)
        while keys[bucket] != 0 { bucket = (bucket + 1) & mask }
        keys[bucket] = key
        values[bucket] = value
        count += 1
    }

    /// Removes `key`, which is in the table.
    mutating func remove(_ key: UInt) {
        var hole = home(key)
        while keys[hole] != key {
            precondition(keys[hole] != 0, "slab table: removing an absent slab")
            hole = (hole + 1) & mask
        }
        // Shift later members of the probe run back so that no lookup stops at the hole early.
        var next = (hole + 1) & mask
        while keys[next] != 0 {
            let wanted = home(keys[next])
            // Move `next` into the hole unless its home lies cyclically in (hole, next].
            let stays = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
            if !stays {
                keys[hole] = keys[next]
                values[hole] = values[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        keys[hole] = 0
        values[hole] = -1
        count -= 1
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = [UInt](repeating: 0, count: 2 * oldKeys.count)
        values = [Int32](repeating: -1, count: 2 * oldKeys.count)
        count = 0
        for (key, value) in zip(oldKeys, oldValues) where key != 0 { insert(key, value) }
    }
}
