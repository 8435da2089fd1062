internal import CSodium

/// Comparisons whose running time does not depend on where inputs differ.
enum ConstantTime {
    /// `true` when both buffers have the same length and content (`sodium_memcmp`).
    static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.count > 0 else { return true }
        return sodium_memcmp(lhs.baseAddress!, rhs.baseAddress!, lhs.count) == 0
    }

    /// `true` when every byte of `bytes` is zero (`sodium_is_zero`); an empty buffer is.
    static func isZero(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count > 0 else { return true }
        return sodium_is_zero(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count) == 1
    }

    /// Array convenience for ``equal(_:_:)-(UnsafeRawBufferPointer,UnsafeRawBufferPointer)``.
    static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        lhs.withUnsafeBytes { l in rhs.withUnsafeBytes { r in equal(l, r) } }
    }
}
