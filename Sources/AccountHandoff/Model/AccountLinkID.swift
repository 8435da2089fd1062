import Foundation

/// The cross-device identity of an account (16 bytes, a UUID). Distinct from each device's
/// local database key; a transfer carries it byte for byte and never replaces it.
public struct AccountLinkID: Hashable, Sendable, CustomStringConvertible {
    /// Length in bytes.
    public static let byteCount = 16

    /// The 16 identifier bytes.
    public let bytes: [UInt8]

    /// Wraps exactly 16 bytes; `nil` otherwise.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The bytes of `uuid`, in RFC 4122 order.
    public init(uuid: UUID) {
        let u = uuid.uuid
        self.bytes = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }

    /// The identifier as a `UUID`.
    public var uuid: UUID {
        let b = bytes
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// The UUID string, e.g. `6F1C...`.
    public var description: String { uuid.uuidString }
}
