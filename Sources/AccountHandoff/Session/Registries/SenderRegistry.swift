import Foundation

/// The sender device's record of the transfers it started (Spec 6.3). It refuses a reused
/// transfer ID at start and tells a transport which incoming frames belong to a live session,
/// so frames for consumed, cancelled or expired transfers are refused before any session sees
/// them. With a ``RegistryStorage`` it survives restarts.
public final class SenderRegistry: @unchecked Sendable {
    // Safety of @unchecked Sendable: `entries` is only touched under `lock`.
    /// Where a transfer stands.
    public enum Status: Hashable, Sendable {
        /// The session is running.
        case pending
        /// The session ended with the outcome of this identifier (Spec 6.4).
        case finished(outcomeIdentifier: String)
    }

    private struct Entry {
        let expiry: UInt32
        var outcomeIdentifier: String?
    }

    private let lock = UnfairLock()
    private let storage: RegistryStorage?
    private var entries: [TransferID: Entry] = [:]

    /// A durable registry in `storage`; keep one per app. The stored records are loaded now
    /// and every change is written before it takes effect.
    ///
    /// - Throws: ``HandoffError/registryUnavailable(_:)`` when the stored records cannot be read.
    public init(storage: RegistryStorage) throws(HandoffError) {
        self.storage = storage
        do {
            adopt(try storage.load())
        } catch { throw .registryUnavailable(error) }
    }

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

    private init() { storage = nil }

    /// Registers a new session's transfer (durably, when storage is used) before its QR is
    /// shown. With storage, the stored records are read again and written under the storage's
    /// lock (``RegistryStorage/update(_:)``), so a transfer another process registered is seen.
    func register(_ payload: SessionPayload) throws(HandoffError) {
        try lock.withLock { () throws(HandoffError) in
            guard entries[payload.transferID] == nil else { throw .transferIDInUse }
            guard let storage else {
                entries[payload.transferID] = Entry(expiry: payload.expiry)
                return
            }
            var inUse = false
            let stored: [RegistryRecord]
            do throws(RegistryStorageFailure) {
                stored = try storage.update { records in
                    guard !records.contains(where: { $0.transferID == payload.transferID }) else {
                        inUse = true
                        return false
                    }
                    records = (records + [RegistryRecord(transferID: payload.transferID, expiry: payload.expiry, outcomeIdentifier: nil)])
                        .sortedByTransferID
                    return true
                }
            } catch { throw .registryUnavailable(error) }
            adopt(stored)
            if inUse { throw .transferIDInUse }
        }
    }

    /// Records how a session ended; its transfer is consumed for good. Writing it is best
    /// effort: a transfer whose outcome could not be stored stays "pending" on disk, and
    /// after a restart no session exists to receive its frames, so it is just as closed.
    func end(_ transferID: TransferID, outcome: SenderOutcome) {
        lock.withLock {
            guard let entry = entries[transferID] else { return }
            entries[transferID]?.outcomeIdentifier = outcome.identifier
            change { records in
                records.removeAll { $0.transferID == transferID }
                records = (records + [RegistryRecord(transferID: transferID, expiry: entry.expiry, outcomeIdentifier: outcome.identifier)])
                    .sortedByTransferID
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
        return try lock.withLock { () throws(HandoffError) -> TransferID in
            guard let entry = entries[frame.transferID] else { throw .unknownTransfer }
            guard entry.outcomeIdentifier == nil else { throw .transferConsumed }
            // A receipt may still arrive during the receipt wait (Spec 6.1); the session itself
            // ends everything else at its expiry.
            guard seconds < Double(entry.expiry) + Double(HandoffSender.receiptWaitSeconds) else { throw .expired }
            return frame.transferID
        }
    }

    /// Where a transfer stands, or `nil` when this registry does not know it (never issued, or pruned).
    public func status(of transferID: TransferID) -> Status? {
        lock.withLock {
            guard let entry = entries[transferID] else { return nil }
            return entry.outcomeIdentifier.map { .finished(outcomeIdentifier: $0) } ?? .pending
        }
    }

    /// Forgets transfers that expired an hour or more before `now`; their frames are then
    /// refused as unknown, which is just as closed. A `now` that is not finite prunes nothing.
    public func prune(now: Date) {
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite else { return }
        lock.withLock {
            let before = entries.count
            entries = entries.filter { RegistryRetention.keeps(expiry: $0.value.expiry, at: seconds) }
            guard entries.count != before else { return }
            change { records in
                records.removeAll { !RegistryRetention.keeps(expiry: $0.expiry, at: seconds) }
                return true
            }
        }
    }

    /// Applies `edit` to the stored records, best effort; call with the lock held.
    private func change(_ edit: (inout [RegistryRecord]) -> Bool) {
        guard let storage, let stored = try? storage.update(edit) else { return }
        adopt(stored)
    }

    /// Takes the stored records (which include other processes' transfers) as this registry's
    /// entries, keeping every outcome this process knows but could not store: a transfer that
    /// ended here stays consumed. Call with the lock held.
    private func adopt(_ records: [RegistryRecord]) {
        var adopted: [TransferID: Entry] = [:]
        for record in records where adopted[record.transferID] == nil {
            let known = entries[record.transferID]?.outcomeIdentifier
            adopted[record.transferID] = Entry(expiry: record.expiry, outcomeIdentifier: record.outcomeIdentifier ?? known)
        }
        entries = adopted
    }
}
