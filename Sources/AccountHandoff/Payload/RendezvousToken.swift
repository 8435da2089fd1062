/// An opaque, app-defined hint that tells the receiver where to reach the sender (for the CLI:
/// a loopback port and a random tag). Capped at ``maximumByteCount`` so it cannot carry data.
///
/// - Warning: Put only routing information here; it is printed in the QR for anyone to read.
public struct RendezvousToken: Hashable, Sendable {
    /// The hard cap on the token's length.
    public static let maximumByteCount = 32

    /// The token bytes.
    public let bytes: [UInt8]

    /// Wraps `bytes`.
    ///
    /// - Throws: ``HandoffError/rendezvousTooLong(_:)`` above ``maximumByteCount`` bytes.
    public init(bytes: [UInt8]) throws(HandoffError) {
        guard bytes.count <= Self.maximumByteCount else { throw .rendezvousTooLong(bytes.count) }
        self.bytes = bytes
    }
}

/// What the scanned device is asked to do; checked against what its user chose.
public enum TransferIntent: UInt8, Hashable, Sendable {
    /// The QR's device is sending one account to the scanning device.
    case sendAccount = 1
}
