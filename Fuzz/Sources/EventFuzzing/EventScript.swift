/// The input format of the event fuzz targets: a typed sequence of events, so that libFuzzer's
/// mutations (and ``EventMutator``'s) work on whole events instead of raw bytes.
///
/// Layout: a 4-byte header (how the world is set up), then events, each `kind | n | n operand
/// bytes`. Any byte string decodes: a missing header byte is 0, a last event cut short keeps
/// the operands present, and every operand read past the end is 0 (``Operands``).
public struct EventScript: Equatable, Sendable {
    /// One event: what happens (`kind`, taken modulo the world's number of kinds) and its
    /// operands (which frame, which bytes, how far the clock moves...).
    public struct Event: Equatable, Sendable {
        /// The event's kind byte.
        public var kind: UInt8
        /// Its operand bytes (at most ``EventScript/maximumOperandCount``).
        public var operands: [UInt8]

        /// An event.
        public init(_ kind: UInt8, _ operands: [UInt8] = []) {
            self.kind = kind
            self.operands = Array(operands.prefix(EventScript.maximumOperandCount))
        }
    }

    /// Bytes of the header.
    public static let headerByteCount = 4
    /// The most operand bytes one event holds (its count is one byte).
    public static let maximumOperandCount = 255

    /// How the world is set up (registries, configuration...), as each world reads it.
    public var header: [UInt8]
    /// The events, in order.
    public var events: [Event]

    /// A script.
    public init(header: [UInt8] = [0, 0, 0, 0], events: [Event]) {
        self.header = Array((header + [0, 0, 0, 0]).prefix(Self.headerByteCount))
        self.events = events
    }

    /// Decodes any byte string.
    public init(bytes: [UInt8]) {
        header = Array((Array(bytes.prefix(Self.headerByteCount)) + [0, 0, 0, 0]).prefix(Self.headerByteCount))
        events = []
        var offset = Self.headerByteCount
        while offset < bytes.count {
            let kind = bytes[offset]
            let count = offset + 1 < bytes.count ? Int(bytes[offset + 1]) : 0
            let start = min(bytes.count, offset + 2)
            let end = min(bytes.count, start + count)
            events.append(Event(kind, Array(bytes[start..<end])))
            offset = start + count
        }
    }

    /// The encoded script.
    public var bytes: [UInt8] {
        var bytes = header
        bytes.reserveCapacity(header.count + events.reduce(0) { $0 + 2 + $1.operands.count })
        for event in events {
            bytes.append(event.kind)
            bytes.append(UInt8(event.operands.count))
            bytes += event.operands
        }
        return bytes
    }
}

/// A cursor over one event's operands that never fails: past the end it yields zeros.
public struct Operands {
    private let bytes: [UInt8]
    private var offset = 0

    /// Reads `bytes` from the start.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next big-endian 16-bit value.
    public mutating func uint16() -> Int { Int(byte()) << 8 | Int(byte()) }

    /// A value in `0..<count` (0 when `count` is 0).
    public mutating func choice(_ count: Int) -> Int { count > 0 ? Int(byte()) % count : 0 }

    /// Every byte not read yet.
    public mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return offset < bytes.count ? Array(bytes[offset...]) : []
    }
}
