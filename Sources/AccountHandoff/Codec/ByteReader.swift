/// Reads big-endian integers and fixed-length byte strings from a buffer, failing with a
/// typed error naming the field that did not fit. It never reads past the end.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    /// Starts reading at the first byte of `bytes`.
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// How many bytes are left.
    var remaining: Int { bytes.count - offset }

    /// Reads one byte.
    mutating func readUInt8(_ field: HandoffError.Field) throws(HandoffError) -> UInt8 {
        try read(count: 1, field)[0]
    }

    /// Reads a big-endian `UInt16`.
    mutating func readUInt16(_ field: HandoffError.Field) throws(HandoffError) -> UInt16 {
        let raw = try read(count: 2, field)
        return UInt16(raw[0]) << 8 | UInt16(raw[1])
    }

    /// Reads a big-endian `UInt32`.
    mutating func readUInt32(_ field: HandoffError.Field) throws(HandoffError) -> UInt32 {
        try read(count: 4, field).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Reads exactly `count` bytes.
    mutating func read(count: Int, _ field: HandoffError.Field) throws(HandoffError) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw .malformed(field) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads everything that is left.
    mutating func readRest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    /// Fails with `.malformed(.trailingBytes)` unless every byte has been consumed.
    func expectEnd() throws(HandoffError) {
        guard remaining == 0 else { throw .malformed(.trailingBytes) }
    }
}
