import Foundation

/// What a registry remembers (Spec 6.3), in memory and, with storage, in its storage: the one
/// read-modify-write that ``SenderRegistry`` and ``ReceiverRegistry`` both make.
///
/// Memory answers at once and is this process's view. The storage changes in two ways:
/// - ``insert(_:)`` checks and adds a new transfer (a sender's registration, a receiver's
///   claim) in memory and in the storage, under the storage's lock, so a transfer another
///   process added is seen. It reads and writes the storage before it returns, so it blocks:
///   the session drivers call it on the ``BlockingIOPool``.
/// - ``change(_:)`` makes a best-effort edit (an outcome, a released claim, a prune): memory
///   at once, the storage in the order the edits were made, before it returns when the caller
///   may block (``BlockingCall/mayBlockHere``), otherwise on a pool thread shortly after. It
///   never blocks a thread that runs a task. An edit not written yet is applied again to
///   whatever is read from the storage meanwhile, so memory never goes back.
final class RegistryRecords: @unchecked Sendable {
    // Safety of @unchecked Sendable: `known`, `unwritten` and `writeScheduled` are only
    // touched under `memory`; the storage is only read or written under `writer`, which is
    // taken only where blocking is allowed.

    /// A change to stored records; returns whether to write them.
    typealias Edit = @Sendable (inout [RegistryRecord]) -> Bool

    let storage: RegistryStorage?
    private let memory = NSLock()
    private let writer = NSLock()
    private var known: [TransferID: RegistryRecord] = [:]
    private var unwritten: [Edit] = []
    private var writeScheduled = false

    /// The records of `storage` (none without storage). Blocks with storage.
    ///
    /// - Throws: the storage's ``RegistryStorageFailure`` when its records cannot be read.
    /// No records, kept in memory only.
    init() {
        storage = nil
    }

    init(storage: RegistryStorage?) throws(RegistryStorageFailure) {
        self.storage = storage
        guard let storage else { return }
        let stored = try storage.load()
        memory.withLock { adopt(stored) }
    }

    /// The record of `transferID` in memory, if any.
    func record(of transferID: TransferID) -> RegistryRecord? {
        memory.withLock { known[transferID] }
    }

    /// Adds `record` unless memory or the storage knows its transfer, as one step: two
    /// inserts of one transfer (in this process or two) cannot both succeed. Blocks with storage.
    ///
    /// - Returns: whether it was added (`false`: the transfer was known).
    /// - Throws: the storage's failure; nothing is added then.
    func insert(_ record: RegistryRecord) throws(RegistryStorageFailure) -> Bool {
        let transferID = record.transferID
        guard let storage else {
            return memory.withLock {
                guard known[transferID] == nil else { return false }
                known[transferID] = record
                return true
            }
        }
        guard self.record(of: transferID) == nil else { return false }
        writer.lock()
        defer { writer.unlock() }
        writeUnwritten(to: storage)  // the edits made before this insert come first
        var present = false
        let stored = try storage.update { records in
            guard !records.contains(where: { $0.transferID == transferID }) else {
                present = true
                return false
            }
            records = (records + [record]).sortedByTransferID
            return true
        }
        memory.withLock { adopt(stored) }
        return !present
    }

    /// Edits memory now and, when `edit` returns a change for the storage, the storage: at
    /// once where the caller may block, otherwise on a pool thread. Best effort: a write that
    /// fails leaves the storage as it was.
    ///
    /// - Parameter edit: changes the records in memory; returns the same change for the
    ///   stored records, or `nil` when memory did not change.
    func change(_ edit: (inout [TransferID: RegistryRecord]) -> Edit?) {
        let writeNow: Bool? = memory.withLock {
            guard let stored = edit(&known), storage != nil else { return nil }
            unwritten.append(stored)
            if BlockingCall.mayBlockHere || storage?.mayBlock == false { return true }
            defer { writeScheduled = true }
            return writeScheduled ? nil : false
        }
        guard let writeNow, let storage else { return }
        if writeNow {
            writer.withLock { writeUnwritten(to: storage) }
        } else {
            BlockingIOPool.shared.execute { [self] in
                writer.withLock {
                    memory.withLock { writeScheduled = false }
                    writeUnwritten(to: storage)
                }
            }
        }
    }

    /// Forgets transfers that expired an hour or more before `seconds` (Spec 6.3).
    func prune(at seconds: Double) {
        change { known in
            let before = known.count
            known = known.filter { RegistryRetention.keeps(expiry: $0.value.expiry, at: seconds) }
            guard known.count != before else { return nil }
            return { records in
                records.removeAll { !RegistryRetention.keeps(expiry: $0.expiry, at: seconds) }
                return true
            }
        }
    }

    /// With `writer` held: writes the edits not written yet, oldest first; best effort.
    private func writeUnwritten(to storage: RegistryStorage) {
        while let edit = memory.withLock({ unwritten.first }) {
            let stored = try? storage.update(edit)
            memory.withLock {
                unwritten.removeFirst()
                if let stored { adopt(stored) }
            }
        }
    }

    /// With `memory` held: takes the stored records (which include other processes'
    /// transfers) as what this registry knows, with the edits not written yet applied again,
    /// and keeping every outcome known here but not stored: a transfer that ended here stays
    /// consumed.
    private func adopt(_ stored: [RegistryRecord]) {
        var records = stored
        for edit in unwritten { _ = edit(&records) }
        var adopted: [TransferID: RegistryRecord] = [:]
        for record in records where adopted[record.transferID] == nil {
            let outcome = record.outcomeIdentifier ?? known[record.transferID]?.outcomeIdentifier
            adopted[record.transferID] = RegistryRecord(transferID: record.transferID, expiry: record.expiry, outcomeIdentifier: outcome)
        }
        known = adopted
    }
}
