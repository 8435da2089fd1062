import AccountHandoff
import Foundation

/// An in-memory importer for tests of the receiver session and of the screens built on it:
/// prepares every offer, reports `status` for every import, and records what it saw in
/// ``log`` (never the password's bytes, only their count).
public struct RecordingImporter: AccountImporter {
    /// The receipt status every import reports.
    public let status: ReceiptStatus
    /// What the importer did, in order.
    public let log = ImportLog()

    /// An importer whose imports all end with `status`.
    public init(status: ReceiptStatus = .imported) { self.status = status }

    /// Prepares `offer` (nothing can conflict) and notes it.
    public func prepareImport(of offer: AccountMetadata) async throws(ImportNotReady) -> RecordedImport {
        log.note("prepared \(offer.emailAddress)")
        return RecordedImport(status: status, log: log)
    }
}

/// A preparation of ``RecordingImporter``.
public struct RecordedImport: AccountImportPreparation {
    let status: ReceiptStatus
    let log: ImportLog

    /// Always ready.
    public func checkReady() throws(ImportNotReady) {}

    /// Memory only: the session checks it in place.
    public var checkReadyMayBlock: Bool { false }

    /// Notes the import and reports the importer's status.
    public func importAccount(_ account: ImportedAccount) async -> ImportReport {
        log.note("imported \(account.metadata.emailAddress) with \(account.credential.revealedBytes().count) bytes")
        return ImportReport(status: status, message: "Recorded import: \(status.identifier).")
    }

    /// Notes that the session ended before the password arrived.
    public func abandon() { log.note("abandoned") }
}

/// What a ``RecordingImporter`` did, in order.
public final class ImportLog: @unchecked Sendable {
    // Safety of @unchecked Sendable: `entries` is only touched under `lock`.
    private let lock = NSLock()
    private var entries: [String] = []

    /// An empty log.
    public init() {}

    func note(_ entry: String) { lock.withLock { entries.append(entry) } }

    /// Everything noted so far.
    public var notes: [String] { lock.withLock { entries } }
}
