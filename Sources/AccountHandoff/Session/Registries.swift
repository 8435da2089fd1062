import Foundation

/// The sender device's record of the transfer IDs it issued (Spec 6.3). It refuses a reused
/// ID at start and tells a transport which incoming frames belong to a live session, so frames
/// for consumed, cancelled or expired transfers are refused before any session sees them.
public final class SenderRegistry: @unchecked Sendable {
    // Safety of @unchecked Sendable: `entries` is only touched under `lock`.
    private struct Entry {
        let expiry: UInt32
        var outcome: TransferOutcome?
    }

    private let lock = NSLock()
    private var entries: [TransferID: Entry] = [:]

    /// Creates an empty registry; keep one per app for the app's lifetime.
    public init() {}

    func register(_ payload: SessionPayload) throws(HandoffError) {
        lock.lock()
        defer { lock.unlock() }
        guard entries[payload.transferID] == nil else { throw .transferIDInUse }
        entries[payload.transferID] = Entry(expiry: payload.expiry)
    }

    func end(_ transferID: TransferID, outcome: TransferOutcome) {
        lock.lock()
        defer { lock.unlock() }
        entries[transferID]?.outcome = outcome
    }

    /// Decides whether a frame may be handed to a session: returns its transfer ID when that
    /// transfer is pending on this device.
    ///
    /// - Throws: the frame decoding errors of ``Frame/init(bytes:)``,
    ///   ``HandoffError/unknownTransfer``, ``HandoffError/transferConsumed``, ``HandoffError/expired``.
    public func admit(frame bytes: [UInt8], now: Date) throws(HandoffError) -> TransferID {
        let frame = try Frame(bytes: bytes)
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[frame.transferID] else { throw .unknownTransfer }
        guard entry.outcome == nil else { throw .transferConsumed }
        guard now.timeIntervalSince1970 < Double(entry.expiry) else { throw .expired }
        return frame.transferID
    }

    /// How a transfer ended, or `nil` while it is pending or unknown.
    public func outcome(of transferID: TransferID) -> TransferOutcome? {
        lock.lock()
        defer { lock.unlock() }
        return entries[transferID]?.outcome
    }

    /// Forgets transfers that expired more than an hour before `now`; their frames are then
    /// refused as unknown, which is just as closed.
    public func prune(now: Date) {
        lock.lock()
        defer { lock.unlock() }
        entries = entries.filter { Double($0.value.expiry) + 3600 > now.timeIntervalSince1970 }
    }
}

/// The receiver device's record of scanned transfer IDs, so a QR can be used only once.
public final class ReceiverRegistry: @unchecked Sendable {
    // Safety of @unchecked Sendable: `scanned` is only touched under `lock`.
    private let lock = NSLock()
    private var scanned: [TransferID: UInt32] = [:]

    /// Creates an empty registry; keep one per app for the app's lifetime.
    public init() {}

    /// Whether this transfer ID was already scanned here.
    public func hasScanned(_ transferID: TransferID) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return scanned[transferID] != nil
    }

    /// Checks and records the transfer ID in one step, so two scans of the same QR racing on
    /// one device cannot both pass.
    func claim(_ payload: SessionPayload) throws(HandoffError) {
        lock.lock()
        defer { lock.unlock() }
        guard scanned[payload.transferID] == nil else { throw .alreadyScanned }
        scanned[payload.transferID] = payload.expiry
    }

    /// Gives a claim back when the scan failed after claiming (an invalid sender key).
    func release(_ payload: SessionPayload) {
        lock.lock()
        defer { lock.unlock() }
        scanned[payload.transferID] = nil
    }

    /// Forgets transfers that expired more than an hour before `now` (the receiver refuses
    /// their QR as expired anyway).
    public func prune(now: Date) {
        lock.lock()
        defer { lock.unlock() }
        scanned = scanned.filter { Double($0.value) + 3600 > now.timeIntervalSince1970 }
    }
}
