/// Writes big-endian integers and raw bytes into a buffer that is already there (the stack or
/// a new array's storage), so that building a frame, a nonce or an AD allocates nothing more.
/// Writing past the end traps.
struct BufferWriter {
    private let buffer: UnsafeMutableRawBufferPointer
    /// Bytes written so far.
    private(set) var count = 0

    /// Starts writing at the first byte of `buffer`.
    init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

    /// The bytes written so far.
    var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[..<count]) }

    /// Appends one byte.
    mutating func write(_ value: UInt8) {
        buffer[count] = value
        count += 1
    }

    /// Appends a big-endian `UInt16`.
    mutating func write(_ value: UInt16) {
        write(UInt8(value >> 8))
        write(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a big-endian `UInt32`.
    mutating func write(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { write(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Appends raw bytes.
    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= buffer.count - count, "buffer writer overflow")
        if let source = bytes.baseAddress, bytes.count > 0 {
            (buffer.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    /// Appends the bytes of an array.
    mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Appends the UTF-8 bytes of a string.
    mutating func write(_ text: String.UTF8View) {
        let copied: Void? = text.withContiguousStorageIfAvailable { write(UnsafeRawBufferPointer($0)) }
        if copied == nil { for byte in text { write(byte) } }
    }

    /// Appends `count` zero bytes.
    mutating func writeZeros(_ zeros: Int) {
        precondition(zeros <= buffer.count - count, "buffer writer overflow")
        if zeros > 0 { (buffer.baseAddress! + count).initializeMemory(as: UInt8.self, repeating: 0, count: zeros) }
        count += zeros
    }
}
