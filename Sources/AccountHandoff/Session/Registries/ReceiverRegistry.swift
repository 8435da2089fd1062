import Foundation

/// The receiver device's record of the QRs it used, so that a QR works once per device
/// (Spec 6.3). With a ``RegistryStorage`` it survives restarts.
public final class ReceiverRegistry: Sendable {
    private let records: RegistryRecords

    /// A durable registry in `storage`; keep one per app. The stored records are loaded now
    /// and every claim is written before a scan returns.
    ///
    /// With storage, this reads the storage and so blocks: call it on the ``BlockingIOPool``
    /// (or a thread of your own). ``HandoffReceiverSession`` scans there too; an app that
    /// calls ``HandoffReceiver/scan(payload:expecting:configuration:random:now:registry:localGate:)``
    /// itself with a registry that has storage calls it there as well.
    ///
    /// - Throws: ``HandoffError/registryUnavailable(_:)`` when the stored records cannot be read.
    public init(storage: RegistryStorage) throws(HandoffError) {
        do { records = try RegistryRecords(storage: storage) } catch { throw .registryUnavailable(error) }
    }

    /// Whether the registry keeps its records in a storage that blocks, so that claiming blocks.
    package var hasStorage: Bool { records.storage?.mayBlock ?? false }

    /// The device's durable registry in `directory` (the file `scanned-codes`, created on the first
    /// use; the directory is created with mode 0700 when missing): what an app keeps, one per
    /// device.
    ///
    /// - Throws: ``HandoffError/registryUnavailable(_:)`` when the directory cannot be created
    ///   or the stored records cannot be read.
    public convenience init(directory: URL) throws(HandoffError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            throw .registryUnavailable(.unwritable(errno: Int32(underlying?.code ?? Int(EIO))))
        }
        try self.init(storage: FileRegistryStorage(path: directory.appendingPathComponent("scanned-codes").path))
    }

    /// A registry that lives in memory only, as long as the process: for tests, and for a
    /// process that runs one transfer and exits. After a restart it forgets every transfer, so
    /// an app keeps a durable one (``init(directory:)``).
    public static func inMemory() -> ReceiverRegistry { ReceiverRegistry() }

    private init() { records = RegistryRecords() }

    /// Whether this transfer was claimed here.
    public func hasClaimed(_ transferID: TransferID) -> Bool {
        records.record(of: transferID) != nil
    }

    /// Checks and records the transfer in one step (Spec 2.5, S4), so two scans of the same QR
    /// racing on one device cannot both pass. With storage the step covers other processes
    /// too: the stored records are read again and written under the storage's lock
    /// (``RegistryStorage/update(_:)``), so a claim another process made meanwhile is seen;
    /// that blocks.
    func claim(_ payload: SessionPayload) throws(HandoffError) {
        try claim(payload.transferID, expiry: payload.expiry, refusal: .alreadyScanned)
    }

    /// Claims a typed code (Spec 6.3): its claim ID (a domain-separated hash of its 11
    /// digits) with `expiry`, this device's own bound (`now + 600 + skew`), never the peer's.
    /// Blocks as ``claim(_:)`` does.
    func claim(typedCode id: TransferID, expiry: UInt32) throws(HandoffError) {
        try claim(id, expiry: expiry, refusal: .typedCodeAlreadyUsed)
    }

    /// Checks and records `id` in one step; `refusal` when it is there already.
    private func claim(_ id: TransferID, expiry: UInt32, refusal: HandoffError) throws(HandoffError) {
        let record = RegistryRecord(transferID: id, expiry: expiry, outcomeIdentifier: nil)
        let added: Bool
        do { added = try records.insert(record) } catch { throw .registryUnavailable(error) }
        guard added else { throw refusal }
    }

    /// Gives a claim back (Spec 6.3). The library does so itself when a scan fails after
    /// claiming; an app does so only when the session's hello was never written to any
    /// transport (for example the connection to the sender was refused). With storage, the
    /// write is best effort and never blocks a thread that runs a task (it then follows on the
    /// ``BlockingIOPool``).
    ///
    /// - Warning: Releasing a claim whose hello may have reached the sender lets the same QR
    ///   be used twice on this device.
    public func release(_ transferID: TransferID) {
        records.change { known in
            guard known.removeValue(forKey: transferID) != nil else { return nil }
            return { stored in
                stored.removeAll { $0.transferID == transferID }
                return true
            }
        }
    }

    /// Forgets transfers that expired an hour or more before `now` (their QR is refused as
    /// expired anyway). A `now` that is not finite prunes nothing. With storage, the write
    /// follows as ``release(_:)``'s does.
    public func prune(now: Date) {
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite else { return }
        records.prune(at: seconds)
    }
}
