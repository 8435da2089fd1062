import AccountHandoff
import AccountHandoffImport

/// How ``ReferenceAccountStore/open(at:options:)`` treats a store directory that group or
/// other users have permissions on.
public enum LoosePermissionsPolicy: Hashable, Sendable {
    /// Refuse to open the store (``StoreLocationProblem/permissionsTooOpen(path:mode:)``).
    case refuse
    /// Remove the group and other bits, and report a ``ReferenceStoreWarning``.
    case tighten
}

/// Settings of the reference store.
public struct ReferenceStoreOptions: Hashable, Sendable {
    /// What to do with a directory that others can access. Refusing is the default.
    public var loosePermissions: LoosePermissionsPolicy
    /// How long a write waits for another process's write transaction.
    public var busyTimeout: Duration
    /// How long ``ReferenceAccountStore/acquireImportLease()`` waits while another process
    /// holds `import.lock` exclusively (a recovery, or a stuck process) before it gives up
    /// with ``AccountHandoffImport/AccountStoreError/lockedByAnotherProcess(waitedSeconds:)``.
    public var importLockTimeout: Duration

    /// The defaults: refuse loose permissions, wait up to 5 seconds for a busy database and
    /// up to 10 seconds for the import lock.
    public init(loosePermissions: LoosePermissionsPolicy = .refuse, busyTimeout: Duration = .seconds(5),
                importLockTimeout: Duration = .seconds(10)) {
        self.loosePermissions = loosePermissions
        self.busyTimeout = busyTimeout
        self.importLockTimeout = importLockTimeout
    }
}

/// Something the store fixed while opening, for the app to show or log.
public enum ReferenceStoreWarning: Hashable, Sendable, CustomStringConvertible {
    /// Group and other permissions were removed from `path`.
    case tightenedPermissions(path: String, from: UInt16, to: UInt16)

    /// The English sentence (``sentence(in:)``).
    public var description: String { sentence(in: .english) }

    /// A whole sentence saying what was changed and why it matters.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .tightenedPermissions(let path, let from, let to):
            sentenceCatalog.sentence("warning.tightenedPermissions", .text(path), .text(String(from, radix: 8)), .text(String(to, radix: 8)),
                                     in: language)
        }
    }
}

/// A named point inside a store operation, where test hooks inject a failure or stop the
/// process. Package-internal: apps never see it.
package enum ReferenceStoreStep: String, CaseIterable, Sendable {
    /// The staged file exists (created empty, mode 0600).
    case stageFileCreated = "stage.fileCreated"
    /// The credential bytes are written but not yet synced.
    case stageFileWritten = "stage.fileWritten"
    /// The staged file is synced; its directory entry is not.
    case stageFileSynced = "stage.fileSynced"
    /// The commit's write transaction has begun.
    case commitTransactionBegun = "commit.transactionBegun"
    /// The account row is written inside the transaction, not yet committed.
    case commitRowWritten = "commit.rowWritten"
    /// The commit's transaction is committed.
    case commitCommitted = "commit.committed"
    /// The staged file has been renamed to the account's credential file; the directory is not synced.
    case activateRenamed = "activate.renamed"
    /// The cleared pending marker is committed.
    case finishCommitted = "finish.committed"
    /// A discarded staged file has been unlinked; the directory is not synced.
    case discardUnlinked = "discard.unlinked"
}

/// Called at each ``ReferenceStoreStep``; returning a failure makes the operation fail there,
/// through its normal error path.
package typealias ReferenceStoreStepHook = @Sendable (ReferenceStoreStep) -> StoreFailure?
