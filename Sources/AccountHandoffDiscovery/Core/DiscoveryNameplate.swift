/// The typed code's nameplate as discovery sees it: three decimal digits, `000` to `999`. It is
/// public (it names the sending device on the local network), so it may appear in logs,
/// errors and service names.
public struct DiscoveryNameplate: Hashable, Sendable, CustomStringConvertible {
    /// The number, 0 to 999.
    public let value: UInt16

    /// The nameplate `value`; `nil` unless it is 0 to 999.
    public init?(_ value: Int) {
        guard (0...999).contains(value) else { return nil }
        self.value = UInt16(value)
    }

    /// Reads exactly three ASCII digits (`"007"`); `nil` for anything else.
    public init?(digits: some StringProtocol) {
        self.init(asciiDigits: Array(digits.utf8))
    }

    /// Reads exactly three ASCII digit bytes; `nil` for anything else.
    init?(asciiDigits bytes: [UInt8]) {
        guard bytes.count == 3, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        value = bytes.reduce(0) { $0 * 10 + UInt16($1 - 0x30) }
    }

    /// The three digits, with leading zeros (`"007"`).
    public var digits: String {
        let text = String(value)
        return String(repeating: "0", count: 3 - text.count) + text
    }

    /// The three digits.
    public var description: String { digits }
}
