import Foundation

/// The sender device's record of the transfers it started (Spec 6.3). It refuses a reused
/// transfer ID at start and tells a transport which incoming frames belong to a live session,
/// so frames for consumed, cancelled or expired transfers are refused before any session sees
/// them. With a ``RegistryStorage`` it survives restarts.
public final class SenderRegistry: Sendable {
    /// Where a transfer stands.
    public enum Status: Hashable, Sendable {
        /// The session is running.
        case pending
        /// The session ended with the outcome of this identifier (Spec 6.4).
        case finished(outcomeIdentifier: String)
    }

    private let records: RegistryRecords

    /// A durable registry in `storage`; keep one per app. The stored records are loaded now
    /// and every change is written before it takes effect.
    ///
    /// With storage, this reads the storage and so blocks: call it on the ``BlockingIOPool``
    /// (or a thread of your own). ``HandoffSenderSession`` registers its transfers there too;
    /// an app that calls ``HandoffSender/start(account:rendezvous:configuration:random:now:registry:typedRoutes:typedWrongGuesses:localGate:)``
    /// itself with a registry that has storage calls it there as well.
    ///
    /// - Throws: ``HandoffError/registryUnavailable(_:)`` when the stored records cannot be read.
    public init(storage: RegistryStorage) throws(HandoffError) {
        do { records = try RegistryRecords(storage: storage) } catch { throw .registryUnavailable(error) }
    }

    /// Whether the registry keeps its records in a storage that blocks, so that registering blocks.
    package var hasStorage: Bool { records.storage?.mayBlock ?? false }

    /// The device's durable registry in `directory` (the file `sent-codes`, created on the first
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
        try self.init(storage: FileRegistryStorage(path: directory.appendingPathComponent("sent-codes").path))
    }

    /// A registry that lives in memory only, as long as the process: for tests, and for a
    /// process that runs one transfer and exits. After a restart it forgets every transfer, so
    /// an app keeps a durable one (``init(directory:)``).
    public static func inMemory() -> SenderRegistry { SenderRegistry() }

    private init() { records = RegistryRecords() }

    /// Registers a new session's transfer (durably, when storage is used) before its QR is
    /// shown. With storage, the stored records are read again and written under the storage's
    /// lock (``RegistryStorage/update(_:)``), so a transfer another process registered is
    /// seen; that blocks.
    func register(_ payload: SessionPayload) throws(HandoffError) {
        let record = RegistryRecord(transferID: payload.transferID, expiry: payload.expiry, outcomeIdentifier: nil)
        let added: Bool
        do { added = try records.insert(record) } catch { throw .registryUnavailable(error) }
        guard added else { throw .transferIDInUse }
    }

    /// Records how a session ended; its transfer is consumed for good. Writing it is best
    /// effort, and never blocks a thread that runs a task (the write then follows on the
    /// ``BlockingIOPool``): a transfer whose outcome could not be stored stays "pending" on
    /// disk, and after a restart no session exists to receive its frames, so it is just as
    /// closed.
    func end(_ transferID: TransferID, outcome: SenderOutcome) {
        records.change { known in
            guard let entry = known[transferID] else { return nil }
            let ended = RegistryRecord(transferID: transferID, expiry: entry.expiry, outcomeIdentifier: outcome.identifier)
            known[transferID] = ended
            return { stored in
                stored.removeAll { $0.transferID == transferID }
                stored = (stored + [ended]).sortedByTransferID
                return true
            }
        }
    }

    /// Decides whether a frame may be handed to a session: returns its transfer ID when that
    /// transfer is pending on this device (Spec 6.3).
    ///
    /// - Throws: the frame decoding errors of ``Frame/init(bytes:)``,
    ///   ``HandoffError/unknownTransfer``, ``HandoffError/transferConsumed``,
    ///   ``HandoffError/invalidClock``, ``HandoffError/unknownTransfer``,
    ///   ``HandoffError/transferConsumed``, ``HandoffError/expired`` (at `expiry + 120`, the end of
    ///   the receipt wait), in that order.
    public func admit(frame bytes: [UInt8], now: Date) throws(HandoffError) -> TransferID {
        let frame = try Frame(bytes: bytes)
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite else { throw .invalidClock }
        guard let entry = records.record(of: frame.transferID) else { throw .unknownTransfer }
        guard entry.outcomeIdentifier == nil else { throw .transferConsumed }
        // A receipt may still arrive during the receipt wait (Spec 6.1); the session itself
        // ends everything else at its expiry.
        guard seconds < Double(entry.expiry) + Double(HandoffSender.receiptWaitSeconds) else { throw .expired }
        return frame.transferID
    }

    /// Where a transfer stands, or `nil` when this registry does not know it (never issued, or pruned).
    public func status(of transferID: TransferID) -> Status? {
        guard let entry = records.record(of: transferID) else { return nil }
        return entry.outcomeIdentifier.map { .finished(outcomeIdentifier: $0) } ?? .pending
    }

    /// Forgets transfers that expired an hour or more before `now`; their frames are then
    /// refused as unknown, which is just as closed. A `now` that is not finite prunes nothing.
    /// With storage, the write follows as ``end(_:outcome:)``'s does.
    public func prune(now: Date) {
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite else { return }
        records.prune(at: seconds)
    }
}
