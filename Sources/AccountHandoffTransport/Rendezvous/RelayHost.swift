/// A relay's host name as a rendezvous token carries it (Spec 11.2): a lowercase DNS name in
/// letter-digit-hyphen form (labels of 1...63 characters of `a-z 0-9 -` separated by single
/// dots, no label starting or ending with `-`, no trailing dot) or a dotted IPv4 address,
/// 1...42 characters, packed three characters to two bytes.
public struct RelayHost: Hashable, Sendable, CustomStringConvertible {
    /// The longest host a token can hold (28 packed bytes beside the flags and relay port).
    public static let maximumLength = 42

    /// The host name.
    public let name: String

    /// Checks `name` against the rules above.
    ///
    /// - Throws: ``RendezvousTokenError/invalidRelayHost`` for anything else.
    public init(_ name: String) throws(RendezvousTokenError) {
        guard Self.isValid(Array(name.utf8)) else { throw .invalidRelayHost }
        self.name = name
    }

    /// The host name.
    public var description: String { name }

    // MARK: Packing (Spec 11.2)

    /// `pad`, `a...z`, `0...9`, `-`, `.` as symbol indices 0...38.
    static let alphabet: [UInt8] = [0] + Array("abcdefghijklmnopqrstuvwxyz0123456789-.".utf8)
    /// Symbols per group and the group's base: 39 * 39 = 1521.
    static let radix = 39
    /// The first value no group can have: 39^3.
    static let groupLimit = radix * radix * radix

    /// The packed bytes: groups of three symbols (the last padded with `pad`) as big-endian
    /// `u16 = s0 * 1521 + s1 * 39 + s2`.
    public var packed: [UInt8] {
        var symbols = name.utf8.map { Self.alphabet.firstIndex(of: $0)! }
        while symbols.count % 3 != 0 { symbols.append(0) }
        var bytes: [UInt8] = []
        for start in stride(from: 0, to: symbols.count, by: 3) {
            let value = symbols[start] * Self.radix * Self.radix + symbols[start + 1] * Self.radix + symbols[start + 2]
            bytes += [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)]
        }
        return bytes
    }

    /// Unpacks a host (Spec 11.2), refusing an odd byte count, a group value of 59,319 or
    /// more, a group of only `pad`s, a `pad` anywhere but at the end of the last group, and a
    /// result that is not a valid relay host, in that order group by group.
    ///
    /// - Throws: the matching ``RendezvousTokenError``.
    public init<Bytes: Collection>(packed bytes: Bytes) throws(RendezvousTokenError) where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        guard bytes.count % 2 == 0 else { throw .oddRelayHostLength }
        var text: [UInt8] = []
        let groupCount = bytes.count / 2
        for group in 0..<groupCount {
            let value = Int(bytes[2 * group]) << 8 | Int(bytes[2 * group + 1])
            guard value < Self.groupLimit else { throw .relayHostGroupOutOfRange }
            let symbols = [value / (Self.radix * Self.radix), value / Self.radix % Self.radix, value % Self.radix]
            guard symbols.contains(where: { $0 != 0 }) else { throw .relayHostPadGroup }
            let isLast = group == groupCount - 1
            var padded = false
            for symbol in symbols {
                if symbol == 0 {
                    guard isLast else { throw .misplacedRelayHostPad }
                    padded = true
                } else {
                    guard !padded else { throw .misplacedRelayHostPad }
                    text.append(Self.alphabet[symbol])
                }
            }
        }
        guard Self.isValid(text) else { throw .invalidRelayHost }
        name = String(decoding: text, as: UTF8.self)
    }

    /// Rule T7 of Spec 3.7 without `A-Z`, 1...42 characters.
    static func isValid(_ text: [UInt8]) -> Bool {
        guard (1...maximumLength).contains(text.count) else { return false }
        let labels = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else { return false }
            guard label.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "-") }) else { return false }
        }
        return true
    }
}
