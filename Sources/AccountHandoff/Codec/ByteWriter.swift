/// Appends big-endian integers and raw bytes; the only way encoders build wire bytes.
struct ByteWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// Starts empty, with room for `capacity` bytes so that writing up to that many never
    /// reallocates.
    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

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

    /// Appends the bytes of any collection (an array slice, a digest's buffer).
    mutating func write<Bytes: Collection<UInt8>>(contentsOf raw: Bytes) { bytes.append(contentsOf: raw) }

    /// Appends `count` zero bytes.
    mutating func writeZeros(_ count: Int) { bytes.append(contentsOf: repeatElement(0, count: count)) }
}
