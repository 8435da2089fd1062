/// A cursor over fuzzer-chosen bytes that never fails: past the end it yields zeros, so
/// every byte string is a valid (if short) script and the fuzzer wastes no inputs.
///
/// Test support only: used by the fuzz targets and by tests that replay their inputs.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    /// Reads from the start of `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte has been consumed.
    public var isExhausted: Bool { offset >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next big-endian 16-bit value.
    public mutating func uint16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }

    /// The next big-endian 32-bit value.
    public mutating func uint32() -> UInt32 { UInt32(uint16()) << 16 | UInt32(uint16()) }

    /// A value in `0..<count` (0 when `count` is 0).
    public mutating func index(below count: Int) -> Int {
        guard count > 0 else { return 0 }
        return Int(byte()) % count
    }

    /// Up to `count` bytes (fewer at the end of the input).
    public mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(0, count))
        defer { offset = max(offset, end) }
        return offset < end ? Array(bytes[offset..<end]) : []
    }

    /// A length-prefixed byte string: a 16-bit length (capped at `maximum`) then that many bytes.
    public mutating func lengthPrefixed(maximum: Int) -> [UInt8] {
        bytes(Int(uint16()) % (maximum + 1))
    }

    /// Everything not yet read.
    public mutating func rest() -> [UInt8] { bytes(bytes.count - offset) }
}
