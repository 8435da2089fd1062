extension TypedCode {
    /// Nameplate draws at or above this bound are drawn again, so `value mod 1000` is uniform
    /// (the largest multiple of 1000 not above 2^16).
    package static let nameplateRejectionBound: UInt16 = 64_000
    /// Secret draws at or above this bound are drawn again, so `value mod 10^7` is uniform
    /// (the largest multiple of 10^7 not above 2^32).
    package static let secretRejectionBound: UInt32 = 4_290_000_000
    /// Draws allowed for each of nameplate and secret before the random source is deemed
    /// broken (an honest source needs more than 64 with probability below 10^-100).
    package static let maximumDraws = 64

    /// Draws a new code from `random` (Spec 12.3), in this order: the nameplate (2 bytes a draw,
    /// big-endian, drawn again at or above 64000, then `mod 1000`), then the secret (4 bytes a
    /// draw, big-endian, drawn again at or above 4290000000, then `mod 10^7`), then the check
    /// digit over the ten digits. The secret's bytes are drawn into guarded memory (a temporary
    /// of an arena of their own).
    ///
    /// - Throws: ``HandoffError/keyDerivationFailed`` when 64 draws of one part are all
    ///   rejected (only a broken random source does that); ``HandoffError/secureMemoryUnavailable(_:)``.
    package static func draw(from random: RandomSource) throws(HandoffError) -> TypedCode {
        let nameplate = try drawNameplate(from: random)
        let arena = try SessionArena(byteCount: secretDrawByteCount)
        defer { arena.end() }
        let storage = try SecretBytes(zeroedCount: digitCount)
        let drawn = storage.withUnsafeMutableBytes { digits in
            write(UInt32(nameplate.value), digitCount: nameplateDigitCount, into: digits, at: 0)
            return arena.withScratch(byteCount: secretDrawByteCount) { draw in
                for _ in 0..<maximumDraws {
                    random.fill(draw)
                    let value = draw.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                    guard value < secretRejectionBound else { continue }
                    write(value % 10_000_000, digitCount: secretDigitCount, into: digits, at: nameplateDigitCount)
                    let checked = UnsafeRawBufferPointer(rebasing: digits[..<(digitCount - 1)])
                    digits[digitCount - 1] = 0x30 + DammCheckDigit.interim(checked)
                    return true
                }
                return false
            }
        }
        guard drawn else {
            storage.wipe()
            throw .keyDerivationFailed
        }
        return TypedCode(checkedDigits: storage)
    }

    /// Bytes of one draw of the secret (big-endian).
    private static let secretDrawByteCount = 4

    private static func drawNameplate(from random: RandomSource) throws(HandoffError) -> Nameplate {
        var draw: [UInt8] = [0, 0]
        for _ in 0..<maximumDraws {
            draw.withUnsafeMutableBytes { random.fill($0) }
            let value = UInt16(draw[0]) << 8 | UInt16(draw[1])
            if value < nameplateRejectionBound { return Nameplate(value: value % 1000)! }
        }
        throw .keyDerivationFailed
    }

    /// Writes `value` as `digitCount` ASCII digits, leading zeros included, at `offset`.
    private static func write(_ value: UInt32, digitCount: Int, into digits: UnsafeMutableRawBufferPointer, at offset: Int) {
        var rest = value
        for index in (offset..<(offset + digitCount)).reversed() {
            digits[index] = 0x30 + UInt8(rest % 10)
            rest /= 10
        }
    }
}
