internal import CSodium

/// Comparisons whose running time does not depend on where inputs differ.
enum ConstantTime {
    /// `true` when both buffers have the same length and content (`sodium_memcmp`).
    static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.count > 0 else { return true }
        return sodium_memcmp(lhs.baseAddress!, rhs.baseAddress!, lhs.count) == 0
    }

    /// `true` when every byte of `bytes` is zero; an empty buffer is. It reads every byte
    /// whatever it finds, OR-ing eight at a time, with no branch on their values: as
    /// `sodium_is_zero`, which reads one byte at a time and took 1% of a session on the
    /// credential's padding (Spec 3.5).
    static func isZero(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var accumulated: UInt64 = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            accumulated |= base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < bytes.count {
            accumulated |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
            offset += 1
        }
        return accumulated == 0
    }

    /// Array convenience for ``equal(_:_:)-(UnsafeRawBufferPointer,UnsafeRawBufferPointer)``.
    static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        lhs.withUnsafeBytes { l in rhs.withUnsafeBytes { r in equal(l, r) } }
    }
}
