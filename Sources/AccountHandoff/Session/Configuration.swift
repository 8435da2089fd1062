/// Sender settings.
public struct SenderConfiguration: Hashable, Sendable {
    /// The hard maximum lifetime of a session, in seconds.
    public static let maximumLifetime: UInt32 = 600
    /// The shortest allowed lifetime, in seconds.
    public static let minimumLifetime: UInt32 = 30

    /// Seconds from `start` until the session expires (default 180).
    public let lifetime: UInt32

    /// - Throws: ``HandoffError/invalidConfiguration`` outside 30...600 seconds.
    public init(lifetime: UInt32 = 180) throws(HandoffError) {
        guard (Self.minimumLifetime...Self.maximumLifetime).contains(lifetime) else { throw .invalidConfiguration }
        self.lifetime = lifetime
    }

    /// The default: 180 seconds.
    public static let standard = try! SenderConfiguration()
}

/// Receiver settings.
public struct ReceiverConfiguration: Hashable, Sendable {
    /// The largest allowed skew tolerance, in seconds.
    public static let maximumClockSkew: UInt32 = 120

    /// How far the receiver's clock may run ahead of (or behind) the sender's, in seconds.
    /// The sender, which holds the secret, stays the authority on expiry.
    public let clockSkewTolerance: UInt32

    /// - Throws: ``HandoffError/invalidConfiguration`` above 120 seconds.
    public init(clockSkewTolerance: UInt32 = 30) throws(HandoffError) {
        guard clockSkewTolerance <= Self.maximumClockSkew else { throw .invalidConfiguration }
        self.clockSkewTolerance = clockSkewTolerance
    }

    /// The default: 30 seconds of skew tolerance.
    public static let standard = try! ReceiverConfiguration()
}
