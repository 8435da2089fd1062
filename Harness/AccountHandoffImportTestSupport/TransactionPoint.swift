import AccountHandoffImport
import AccountHandoffReferenceStore
import AccountHandoffSecretService

/// A named step of the import transaction, in the order an import reaches it, where a test
/// injects a fault or kills the process. Points named `*.before` and `*.after` are around a
/// store call (see ``InterposingStore``); the others are inside the reference store
/// (``AccountHandoffReferenceStore/ReferenceStoreStep``) or the Secret Service store
/// (``AccountHandoffSecretService/SecretServiceStep``).
package enum TransactionPoint: String, CaseIterable, Sendable {
    case stageBefore = "stage.before"
    case stageFileCreated = "stage.fileCreated"
    case stageFileWritten = "stage.fileWritten"
    case stageFileSynced = "stage.fileSynced"
    case stageAfter = "stage.after"
    case validateAfter = "validate.after"
    case commitTransactionBegun = "commit.transactionBegun"
    case commitRowWritten = "commit.rowWritten"
    case commitCommitted = "commit.committed"
    case commitAfter = "commit.after"
    case activateRenamed = "activate.renamed"
    case activateActiveItemStored = "activate.activeItemStored"
    case activateAfter = "activate.after"
    case finishCommitted = "finish.committed"
    case finishAfter = "finish.after"
    case discardBefore = "discard.before"
    case discardUnlinked = "discard.unlinked"
    case discardAfter = "discard.after"

    /// The reference store's step for points inside the store.
    package init?(_ step: ReferenceStoreStep) {
        self.init(rawValue: step.rawValue)
    }

    /// The Secret Service store's step.
    package init?(_ step: SecretServiceStep) {
        self.init(rawValue: step.rawValue)
    }

    /// Whether only an import whose validation failed reaches the point.
    package var isOnDiscardPath: Bool {
        self == .discardBefore || self == .discardUnlinked || self == .discardAfter
    }

    /// Whether the point lies on the path of an import whose validation fails.
    package var isOnValidationFailurePath: Bool {
        switch self {
        case .stageBefore, .stageFileCreated, .stageFileWritten, .stageFileSynced, .stageAfter, .validateAfter,
             .discardBefore, .discardUnlinked, .discardAfter: true
        default: false
        }
    }

    /// Whether a successful import has passed its commit when it reaches this point, so the
    /// store must hold the new account after a crash here.
    package var isAfterCommit: Bool {
        switch self {
        case .commitCommitted, .commitAfter, .activateRenamed, .activateActiveItemStored, .activateAfter, .finishCommitted,
             .finishAfter: true
        default: false
        }
    }

    /// The points a successful import into the reference store's files reaches.
    package static var successPath: [TransactionPoint] { CredentialBackend.files.successPath }

    /// The points an import with a failing validation into the reference store's files reaches.
    package static var validationFailurePath: [TransactionPoint] { CredentialBackend.files.validationFailurePath }
}

/// What to do at a point: nothing, or fail the operation with this failure. The kill probe's
/// interposer never returns at its point.
package typealias Interposer = @Sendable (TransactionPoint) -> StoreFailure?
