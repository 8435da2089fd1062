import AccountHandoff

/// A seeded, reproducible byte stream for tests and vector generation ONLY.
///
/// It is SplitMix64: each 8-byte output block is the next SplitMix64 value, little-endian,
/// and a request for `n` bytes consumes `ceil(n / 8)` blocks. Anyone who knows the seed
/// knows every key, so it lives in this separate test-support module that production
/// targets do not link, and its name says what it is.
///
/// - Warning: Never use this in an app. Use `SystemRandomSource`.
package final class InsecureDeterministicRandom: RandomSource {
    private var state: UInt64

    /// Starts the stream at `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next SplitMix64 output.
    private func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Fills `buffer` with the next bytes of the stream.
    package func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var index = 0
        while index < buffer.count {
            var block = next()
            for _ in 0..<8 where index < buffer.count {
                buffer[index] = UInt8(truncatingIfNeeded: block)
                block >>= 8
                index += 1
            }
        }
    }
}
