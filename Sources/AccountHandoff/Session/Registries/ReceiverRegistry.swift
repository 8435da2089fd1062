import Foundation

/// The receiver device's record of the QRs it used, so that a QR works once per device
/// (Spec 6.3). With a ``RegistryStorage`` it survives restarts.
public final class ReceiverRegistry: @unchecked Sendable {
    // Safety of @unchecked Sendable: `claimed` is only touched under `lock`.
    private let lock = UnfairLock()
    private let storage: RegistryStorage?
    private var claimed: [TransferID: UInt32] = [:]

    /// Creates a registry; keep one per app. With `storage`, the stored records are loaded now
    /// and every claim is written before a scan returns.
    ///
    /// - Throws: ``HandoffError/registryUnavailable(_:)`` when the stored records cannot be read.
    public init(storage: RegistryStorage? = nil) throws(HandoffError) {
        self.storage = storage
        guard let storage else { return }
        do {
            adopt(try storage.load())
        } catch { throw .registryUnavailable(error) }
    }

    /// Whether this transfer was claimed here.
    public func hasClaimed(_ transferID: TransferID) -> Bool {
        lock.withLock { claimed[transferID] != nil }
    }

    /// Checks and records the transfer in one step (Spec 2.5, S4), so two scans of the same QR
    /// racing on one device cannot both pass. With storage the step covers other processes
    /// too: the stored records are read again and written under the storage's lock
    /// (``RegistryStorage/update(_:)``), so a claim another process made meanwhile is seen.
    func claim(_ payload: SessionPayload) throws(HandoffError) {
        try claim(payload.transferID, expiry: payload.expiry, refusal: .alreadyScanned)
    }

    /// Claims a typed code (Spec 6.3): its claim ID (a domain-separated hash of its 11
    /// digits) with `expiry`, this device's own bound (`now + 600 + skew`), never the peer's.
    func claim(typedCode id: TransferID, expiry: UInt32) throws(HandoffError) {
        try claim(id, expiry: expiry, refusal: .typedCodeAlreadyUsed)
    }

    /// Checks and records `id` in one step; `refusal` when it is there already.
    private func claim(_ id: TransferID, expiry: UInt32, refusal: HandoffError) throws(HandoffError) {
        try lock.withLock { () throws(HandoffError) in
            guard claimed[id] == nil else { throw refusal }
            guard let storage else {
                claimed[id] = expiry
                return
            }
            var claimedElsewhere = false
            let stored: [RegistryRecord]
            do throws(RegistryStorageFailure) {
                stored = try storage.update { records in
                    guard !records.contains(where: { $0.transferID == id }) else {
                        claimedElsewhere = true
                        return false
                    }
                    records = (records + [RegistryRecord(transferID: id, expiry: expiry, outcomeIdentifier: nil)])
                        .sortedByTransferID
                    return true
                }
            } catch { throw .registryUnavailable(error) }
            adopt(stored)
            if claimedElsewhere { throw refusal }
        }
    }

    /// Gives a claim back (Spec 6.3). The library does so itself when a scan fails after
    /// claiming; an app does so only when the session's hello was never written to any
    /// transport (for example the connection to the sender was refused).
    ///
    /// - Warning: Releasing a claim whose hello may have reached the sender lets the same QR
    ///   be used twice on this device.
    public func release(_ transferID: TransferID) {
        lock.withLock {
            guard claimed.removeValue(forKey: transferID) != nil else { return }
            change { records in
                records.removeAll { $0.transferID == transferID }
                return true
            }
        }
    }

    /// Forgets transfers that expired an hour or more before `now` (their QR is refused as
    /// expired anyway). A `now` that is not finite prunes nothing.
    public func prune(now: Date) {
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite else { return }
        lock.withLock {
            let before = claimed.count
            claimed = claimed.filter { RegistryRetention.keeps(expiry: $0.value, at: seconds) }
            guard claimed.count != before else { return }
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

    /// Takes the stored records (which include other processes' claims) as this registry's
    /// claims; call with the lock held.
    private func adopt(_ records: [RegistryRecord]) {
        claimed = Dictionary(records.map { ($0.transferID, $0.expiry) }, uniquingKeysWith: { first, _ in first })
    }
}
