/// The one-time identifier of a transfer (16 bytes), public and carried in every frame.
///
/// It is not a field of the QR: both sides compute it from the exact QR bytes (Spec 2.1),
/// `first 16 bytes of SHA-256("AH4 transfer ID" | qrBinary)`.
public struct TransferID: Hashable, Sendable, CustomStringConvertible {
    /// Length in bytes.
    public static let byteCount = 16
    /// Domain label of the derivation.
    package static let label = Array("AH4 transfer ID".utf8)

    /// The 16 bytes in order, held inline: every frame carries one, and decoding a frame
    /// should not allocate for it.
    private var storage: (UInt64, UInt64) = (0, 0)

    /// The identifier bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Wraps 16 bytes; `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self = bytes.withUnsafeBytes { TransferID(copying: $0) }
    }

    /// The first 16 bytes of `source` (which has at least that many).
    init(copying source: UnsafeRawBufferPointer) {
        precondition(source.count >= Self.byteCount, "transfer ID size")
        Swift.withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[..<Self.byteCount])) }
    }

    /// The transfer ID of a QR's binary form.
    init(qrBinary: [UInt8]) {
        self = SHA256.digest(Self.label, qrBinary).withUnsafeBytes { TransferID(copying: $0) }
    }

    /// Calls `body` with the 16 identifier bytes.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        Swift.withUnsafeBytes(of: storage, body)
    }

    /// Lowercase hex.
    public var description: String { Hex.encode(bytes) }

    /// Whether both identify the same transfer (the same 16 bytes).
    public static func == (left: TransferID, right: TransferID) -> Bool {
        left.storage == right.storage
    }

    /// Feeds the 16 bytes to `hasher`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.0)
        hasher.combine(storage.1)
    }
}
