/// The one-time identifier of a transfer (16 bytes), public and carried in every frame.
///
/// It is not a field of the QR: both sides compute it from the exact QR bytes (Spec 2.1),
/// `first 16 bytes of SHA-256("AH3 transfer ID" | qrBinary)`.
public struct TransferID: Hashable, Sendable, CustomStringConvertible {
    /// Length in bytes.
    public static let byteCount = 16
    /// Domain label of the derivation.
    package static let label = Array("AH3 transfer ID".utf8)

    /// The identifier bytes.
    public let bytes: [UInt8]

    /// Wraps 16 bytes; `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The transfer ID of a QR's binary form.
    init(qrBinary: [UInt8]) {
        self.bytes = Array(SHA256.hash(Self.label, qrBinary).prefix(Self.byteCount))
    }

    /// Lowercase hex.
    public var description: String { Hex.encode(bytes) }
}
