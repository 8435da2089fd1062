import Testing
@testable import AccountHandoff

/// The slab-number table agrees with a Dictionary through growth and many removals
/// (backward-shift deletion must never hide a key behind a hole).
@Suite struct SlabTableTests {
    @Test func agreesWithADictionaryUnderRandomInsertsAndRemovals() {
        var table = SlabTable()
        var model: [UInt: Int32] = [:]
        var generator = SplitMix(seed: 12)
        // Clustered body addresses, as mmap hands them out, plus some far apart.
        let candidates = (1...3000).map { UInt(0x7f00_0000_0000) + UInt($0) * 0x1_0000 }
            + (1...500).map { UInt($0) << 32 }
        for step in 0..<40_000 {
            let key = candidates[Int(generator.next() % UInt64(candidates.count))]
            if model[key] != nil, generator.next() % 3 != 0 {
                table.remove(key)
                model[key] = nil
            } else if model[key] == nil {
                table.insert(key, Int32(step % 100_000))
                model[key] = Int32(step % 100_000)
            }
            if step % 997 == 0 {
                for candidate in candidates { #expect(table.value(for: candidate) == model[candidate]) }
            }
        }
        for candidate in candidates { #expect(table.value(for: candidate) == model[candidate]) }
    }
}

/// A tiny deterministic generator for the table test.
struct SplitMix {
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
