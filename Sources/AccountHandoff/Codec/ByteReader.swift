/// Reads big-endian integers and fixed-length byte strings from a buffer, failing with a
/// typed error naming the field that did not fit. It never reads past the end.
///
/// It reads an array, part of one, or a buffer (a plaintext in guarded memory) where it lies.
struct ByteReader<Bytes: RandomAccessCollection<UInt8>> where Bytes.Index == Int {
    private let bytes: Bytes
    /// The index of the next byte in `bytes`.
    private var offset: Int

    /// Starts reading at the first byte of `bytes` (not copied).
    init(_ bytes: Bytes) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    /// How many bytes are left.
    var remaining: Int { bytes.endIndex - offset }

    /// Reads one byte.
    mutating func readUInt8(_ field: HandoffError.Field) throws(HandoffError) -> UInt8 {
        UInt8(try readBigEndian(byteCount: 1, field))
    }

    /// Reads a big-endian `UInt16`.
    mutating func readUInt16(_ field: HandoffError.Field) throws(HandoffError) -> UInt16 {
        UInt16(try readBigEndian(byteCount: 2, field))
    }

    /// Reads a big-endian `UInt32`.
    mutating func readUInt32(_ field: HandoffError.Field) throws(HandoffError) -> UInt32 {
        try readBigEndian(byteCount: 4, field)
    }

    /// Reads `byteCount` (1...4) bytes as one big-endian number, without copying them out.
    private mutating func readBigEndian(byteCount: Int, _ field: HandoffError.Field) throws(HandoffError) -> UInt32 {
        guard byteCount <= remaining else { throw .malformed(field) }
        var value: UInt32 = 0
        for index in offset..<offset + byteCount { value = value << 8 | UInt32(bytes[index]) }
        offset += byteCount
        return value
    }

    /// Reads exactly `count` bytes.
    mutating func read(count: Int, _ field: HandoffError.Field) throws(HandoffError) -> [UInt8] {
        Array(try readSlice(count: count, field))
    }

    /// Reads exactly `count` bytes, as part of the bytes read from (nothing is copied).
    mutating func readSlice(count: Int, _ field: HandoffError.Field) throws(HandoffError) -> Bytes.SubSequence {
        guard count >= 0, count <= remaining else { throw .malformed(field) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// Passes over exactly `count` bytes.
    mutating func skip(count: Int, _ field: HandoffError.Field) throws(HandoffError) {
        guard count >= 0, count <= remaining else { throw .malformed(field) }
        offset += count
    }

    /// Whether every byte left is zero (padding), without consuming them.
    var restIsAllZero: Bool {
        let rest = bytes[offset...]
        return rest.withContiguousStorageIfAvailable { ConstantTime.isZero(UnsafeRawBufferPointer($0)) }
            ?? rest.allSatisfy { $0 == 0 }
    }

    /// Fails with `.malformed(.trailingBytes)` unless every byte has been consumed.
    func expectEnd() throws(HandoffError) {
        guard remaining == 0 else { throw .malformed(.trailingBytes) }
    }
}

extension ByteReader where Bytes.SubSequence == ArraySlice<UInt8> {
    /// Reads a transfer ID (16 bytes) without copying them into an array.
    mutating func readTransferID(_ field: HandoffError.Field) throws(HandoffError) -> TransferID {
        try readSlice(count: TransferID.byteCount, field).withUnsafeBytes { TransferID(copying: $0) }
    }
}
