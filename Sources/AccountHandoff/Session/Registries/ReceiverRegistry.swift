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
            for record in try storage.load() { claimed[record.transferID] = record.expiry }
        } catch { throw .registryUnavailable(error) }
    }

    /// Whether this transfer was claimed here.
    public func hasClaimed(_ transferID: TransferID) -> Bool {
        lock.withLock { claimed[transferID] != nil }
    }

    /// Checks and records the transfer in one step (Spec 2.5, S4), so two scans of the same QR
    /// racing on one device cannot both pass.
    func claim(_ payload: SessionPayload) throws(HandoffError) {
        try lock.withLock { () throws(HandoffError) in
            guard claimed[payload.transferID] == nil else { throw .alreadyScanned }
            claimed[payload.transferID] = payload.expiry
            do throws(HandoffError) { try persist() } catch {
                claimed[payload.transferID] = nil
                throw error
            }
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
            try? persist()
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
            if claimed.count != before { try? persist() }
        }
    }

    private func persist() throws(HandoffError) {
        guard let storage else { return }
        let records = claimed.map { RegistryRecord(transferID: $0.key, expiry: $0.value, outcomeIdentifier: nil) }
        do { try storage.save(records.sorted { $0.transferID.bytes.lexicographicallyPrecedes($1.transferID.bytes) }) } catch {
            throw .registryUnavailable(error)
        }
    }
}
