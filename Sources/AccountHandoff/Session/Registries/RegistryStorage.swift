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
///
/// Registries change their records only through ``update(_:)``, so a storage that several
/// processes share (one store, several receivers started at once) can make each change one
/// step: read, change, write, with no other process's change in between.
///
/// The methods may block (files, locks, a database): registries call them only where blocking
/// is allowed, on the ``BlockingIOPool`` or a thread that runs no task, never on a thread of
/// Swift concurrency.
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

    /// Reads the stored records, lets `change` edit them, and stores the result when `change`
    /// returns `true`, as one step that no other writer of the same storage interleaves with
    /// (Spec 6.3: two processes cannot both claim one QR, and no claim is lost).
    ///
    /// The default implementation is ``load()``, `change`, ``save(_:)``: right for storage that
    /// only one process writes. Storage that processes share must override it with a
    /// cross-process lock held from the read to the write.
    ///
    /// - Parameter change: edits the records just read; returns whether to write them.
    /// - Returns: the records as stored afterwards.
    /// - Throws: a ``RegistryStorageFailure`` when the records cannot be read or written;
    ///   the old records must then still be intact.
    func update(_ change: (inout [RegistryRecord]) -> Bool) throws(RegistryStorageFailure) -> [RegistryRecord]

    /// Whether reading or writing blocks its thread (a file, a database): the sessions then
    /// reach the registry on the ``BlockingIOPool``. `true` unless a storage says otherwise; a
    /// storage that only keeps memory says `false` and is used in place.
    var mayBlock: Bool { get }
}

extension RegistryStorage {
    /// Storage blocks unless it says otherwise.
    public var mayBlock: Bool { true }
}

extension RegistryStorage {
    /// ``load()``, `change`, then ``save(_:)`` when `change` returns `true`: for storage that
    /// only this process writes.
    ///
    /// - Parameter change: edits the records just read; returns whether to write them.
    /// - Returns: the records as stored afterwards.
    /// - Throws: a ``RegistryStorageFailure`` from ``load()`` or ``save(_:)``.
    public func update(_ change: (inout [RegistryRecord]) -> Bool) throws(RegistryStorageFailure) -> [RegistryRecord] {
        var records = try load()
        guard change(&records) else { return records }
        try save(records)
        return records
    }
}

extension [RegistryRecord] {
    /// The records in the order storage writes them: by transfer ID.
    var sortedByTransferID: [RegistryRecord] {
        sorted { $0.transferID.bytes.lexicographicallyPrecedes($1.transferID.bytes) }
    }
}

/// How long a registry remembers a transfer after its expiry (Spec 6.3).
enum RegistryRetention {
    static let seconds: Double = 3600

    /// Whether a record with `expiry` is still kept at `now`.
    static func keeps(expiry: UInt32, at now: Double) -> Bool { Double(expiry) + seconds > now }
}
