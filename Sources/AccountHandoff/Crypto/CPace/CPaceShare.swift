/// A CPace public share, `Ya` or `Yb` (Spec 12.6): the 32-byte ristretto255 encoding of
/// `y * g`. It travels in the clear. Only its length is checked here; whether the bytes encode
/// an element, and one that is not the identity, is checked when a party uses the share
/// (``HandoffError/invalidPakeShare``).
package struct CPaceShare: Hashable, Sendable {
    /// Bytes of a share.
    package static let byteCount = Ristretto255.elementByteCount

    /// The 32 encoded bytes.
    package let bytes: [UInt8]

    /// Wraps 32 bytes; `nil` for any other length.
    package init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }
}
