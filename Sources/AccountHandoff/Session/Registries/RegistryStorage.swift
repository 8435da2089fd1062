/// One transfer a registry remembers (Spec 6.3).
public struct RegistryRecord: Hashable, Sendable {
    /// The transfer.
    public let transferID: TransferID
    /// The QR's expiry, Unix seconds; the record is pruned an hour after it.
    public let expiry: UInt32
    /// Sender registries: the outcome identifier once the session ended, `nil` while pending.
    /// Receiver registries: always `nil`.
    public let outcomeIdentifier: String?

    /// A record.
    public init(transferID: TransferID, expiry: UInt32, outcomeIdentifier: String?) {
        self.transferID = transferID
        self.expiry = expiry
        self.outcomeIdentifier = outcomeIdentifier
    }
}

/// Durable storage for a registry, so that "a QR works once" survives a restart (Spec 6.3).
/// ``FileRegistryStorage`` keeps the records in one file; an app may keep them elsewhere.
public protocol RegistryStorage: Sendable {
    /// Reads every stored record; empty when nothing was stored yet.
    ///
    /// - Throws: a ``RegistryStorageFailure`` when the records cannot be read.
    func load() throws(RegistryStorageFailure) -> [RegistryRecord]

    /// Replaces the stored records, durably, before returning.
    ///
    /// - Throws: a ``RegistryStorageFailure`` when they cannot be written; the old records
    ///   must then still be intact.
    func save(_ records: [RegistryRecord]) throws(RegistryStorageFailure)
}

/// How long a registry remembers a transfer after its expiry (Spec 6.3).
enum RegistryRetention {
    static let seconds: Double = 3600

    /// Whether a record with `expiry` is still kept at `now`.
    static func keeps(expiry: UInt32, at now: Double) -> Bool { Double(expiry) + seconds > now }
}
