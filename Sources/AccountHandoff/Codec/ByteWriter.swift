/// Appends big-endian integers and raw bytes; the only way encoders build wire bytes.
struct ByteWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes, so that building a frame header (24
    /// bytes) or an AEAD additional data (up to 76) takes one allocation instead of one per
    /// doubling of the buffer.
    init(capacity: Int = 80) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends one byte.
    mutating func write(_ value: UInt8) { bytes.append(value) }

    /// Appends a big-endian `UInt16`.
    mutating func write(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a big-endian `UInt32`.
    mutating func write(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Appends raw bytes.
    mutating func write(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }
}
