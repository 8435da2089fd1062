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

    /// Creates a registry; keep one per app. With `storage`, the stored records are loaded now
    /// and every change is written before it takes effect.
    ///
    /// - Throws: ``HandoffError/registryUnavailable(_:)`` when the stored records cannot be read.
    public init(storage: RegistryStorage? = nil) throws(HandoffError) {
        self.storage = storage
        guard let storage else { return }
        do {
            for record in try storage.load() {
                entries[record.transferID] = Entry(expiry: record.expiry, outcomeIdentifier: record.outcomeIdentifier)
            }
        } catch { throw .registryUnavailable(error) }
    }

    /// Registers a new session's transfer (durably, when storage is used) before its QR is shown.
    func register(_ payload: SessionPayload) throws(HandoffError) {
        try lock.withLock { () throws(HandoffError) in
            guard entries[payload.transferID] == nil else { throw .transferIDInUse }
            entries[payload.transferID] = Entry(expiry: payload.expiry)
            do throws(HandoffError) { try persist() } catch {
                entries[payload.transferID] = nil
                throw error
            }
        }
    }

    /// Records how a session ended; its transfer is consumed for good. Writing it is best
    /// effort: a transfer whose outcome could not be stored stays "pending" on disk, and
    /// after a restart no session exists to receive its frames, so it is just as closed.
    func end(_ transferID: TransferID, outcome: SenderOutcome) {
        lock.withLock {
            entries[transferID]?.outcomeIdentifier = outcome.identifier
            try? persist()
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
            if entries.count != before { try? persist() }
        }
    }

    /// Writes every entry; call with the lock held.
    private func persist() throws(HandoffError) {
        guard let storage else { return }
        let records = entries.map { RegistryRecord(transferID: $0.key, expiry: $0.value.expiry, outcomeIdentifier: $0.value.outcomeIdentifier) }
        do { try storage.save(records.sorted { $0.transferID.bytes.lexicographicallyPrecedes($1.transferID.bytes) }) } catch {
            throw .registryUnavailable(error)
        }
    }
}
