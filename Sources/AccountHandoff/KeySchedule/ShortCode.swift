
/// The six-digit code the receiving device shows and the sending person types (Spec 4.4). It is derived from the session's secret
/// key material, the handshake transcript and the sender's committed nonce, so a man in the
/// middle, even one that runs two sessions, cannot grind its inputs to make two codes match.
public struct ShortCode: Hashable, Sendable, CustomStringConvertible {
    /// Number of decimal digits.
    public static let digitCount = 6
    /// Bytes of HKDF output consumed: 16 big-endian 32-bit candidates.
    static let materialByteCount = 64
    /// Candidates at or above this bound are rejected so `value % 10^6` is unbiased:
    /// the largest multiple of 10^6 not above 2^32.
    package static let rejectionBound: UInt32 = 4_294_000_000

    /// The code as a number below 10^6.
    public let value: UInt32

    /// The first accepted candidate of `material` mapped to six digits, or `nil` when every
    /// candidate is rejected (probability below 2^-194).
    package init?(material: UnsafeRawBufferPointer) {
        guard let index = Self.acceptedCandidateIndex(material) else { return nil }
        value = Self.candidate(material, index) % 1_000_000
    }

    /// The index of the first candidate below ``rejectionBound``; exposed for vectors.
    package static func acceptedCandidateIndex(_ material: UnsafeRawBufferPointer) -> Int? {
        (0..<material.count / 4).first { candidate(material, $0) < rejectionBound }
    }

    private static func candidate(_ material: UnsafeRawBufferPointer, _ index: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(material[index * 4 + $1]) }
    }

    /// The six digits with leading zeros, e.g. `"482913"`.
    public var digits: String {
        let raw = String(value)
        return String(repeating: "0", count: Self.digitCount - raw.count) + raw
    }

    /// Grouped for reading: `"482 913"`.
    public var grouped: String {
        let all = digits
        return String(all.prefix(3)) + " " + String(all.suffix(3))
    }

    /// For screen readers and reading aloud, in English: `"four eight two, nine one three"`.
    /// Apps localise it with ``ShortCodeFormatter``.
    public var spoken: String { ShortCodeFormatter.english.accessibilityLabel(for: self) }

    /// The grouped form.
    public var description: String { grouped }

    /// Whether `typed` is a code entry at all (Spec 4.4): after every space (U+0020) is
    /// removed, exactly six ASCII digits remain. Anything else is refused before any
    /// comparison, so it never counts as a try.
    public static func isEntry(_ typed: String) -> Bool {
        var entered = 0
        for byte in typed.utf8 where byte != 0x20 {
            guard (0x30...0x39).contains(byte) else { return false }
            entered += 1
        }
        return entered == digitCount
    }

    /// Compares a code a person typed with this code in constant time (Spec 4.4).
    /// Spaces are ignored; anything other than exactly six digits does not match.
    public func matches(typed: String) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * Self.digitCount) { buffer in
            let candidate = UnsafeMutableBufferPointer(rebasing: buffer[..<Self.digitCount])
            let expected = UnsafeMutableBufferPointer(rebasing: buffer[Self.digitCount...])
            // The six digits with leading zeros, as ``digits`` spells them.
            var rest = value
            for index in expected.indices.reversed() {
                expected[index] = 0x30 + UInt8(rest % 10)
                rest /= 10
            }
            // Compare a fixed-length buffer so timing does not reveal where or whether lengths differ.
            candidate.initialize(repeating: 0)
            var entered = 0
            for byte in typed.utf8 where byte != 0x20 {
                if entered < candidate.count { candidate[entered] = byte }
                entered += 1
            }
            let sameContent = ConstantTime.equal(UnsafeRawBufferPointer(candidate), UnsafeRawBufferPointer(expected))
            return sameContent && entered == Self.digitCount
        }
    }
}
