internal import CSodium

/// The ristretto255 group (RFC 9496) through libsodium 1.0.18's `crypto_core_ristretto255_*`
/// and `crypto_scalarmult_ristretto255`; no group arithmetic of our own (Spec 12.6). Elements
/// are their 32-byte canonical encodings; scalars are 32 bytes little-endian, reduced below
/// the group order. Every function reads and writes buffers where they lie, so secret scalars,
/// generators and products stay in guarded memory.
package enum Ristretto255 {
    /// Bytes of an encoded element (`crypto_core_ristretto255_BYTES`).
    package static let elementByteCount = 32
    /// Bytes of a scalar (`crypto_core_ristretto255_SCALARBYTES`).
    package static let scalarByteCount = 32
    /// Bytes of the hash that `elementFromHash` maps (`crypto_core_ristretto255_HASHBYTES`).
    static let hashByteCount = 64
    /// Bytes of the wide value that `reduce` reduces (`crypto_core_ristretto255_NONREDUCEDSCALARBYTES`).
    static let wideScalarByteCount = 64

    /// The element derivation function of RFC 9496 section 4.3.4 (`element_derivation`,
    /// libsodium's `crypto_core_ristretto255_from_hash`): 64 bytes to an encoded element.
    static func elementFromHash(_ hash: UnsafeRawBufferPointer, into element: UnsafeMutableRawBufferPointer) {
        precondition(hash.count == hashByteCount && element.count == elementByteCount, "ristretto255 from_hash sizes")
        Sodium.ensureInitialised()
        _ = crypto_core_ristretto255_from_hash(element.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                               hash.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    /// `wide` (64 bytes, little-endian) reduced modulo the group order into `scalar` (32 bytes).
    static func reduce(_ wide: UnsafeRawBufferPointer, into scalar: UnsafeMutableRawBufferPointer) {
        precondition(wide.count == wideScalarByteCount && scalar.count == scalarByteCount, "ristretto255 reduce sizes")
        Sodium.ensureInitialised()
        crypto_core_ristretto255_scalar_reduce(scalar.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                               wide.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    /// Whether `bytes` is the canonical encoding of an element (RFC 9496 section 4.3.1,
    /// `decode`). The identity's encoding (32 zero bytes) is one.
    static func isValidElement(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == elementByteCount else { return false }
        Sodium.ensureInitialised()
        return crypto_core_ristretto255_is_valid_point(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 1
    }

    /// `scalar * element` into `product`. Returns `false`, with `product` all zero, when
    /// `element` does not decode or the product is the identity (libsodium returns -1 for both).
    static func multiply(_ scalar: UnsafeRawBufferPointer, _ element: UnsafeRawBufferPointer,
                         into product: UnsafeMutableRawBufferPointer) -> Bool {
        precondition(scalar.count == scalarByteCount && element.count == elementByteCount && product.count == elementByteCount,
                     "ristretto255 scalarmult sizes")
        Sodium.ensureInitialised()
        let status = crypto_scalarmult_ristretto255(product.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                    scalar.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                    element.baseAddress!.assumingMemoryBound(to: UInt8.self))
        guard status == 0, !ConstantTime.isZero(UnsafeRawBufferPointer(product)) else {
            sodium_memzero(product.baseAddress!, product.count)
            return false
        }
        return true
    }
}
