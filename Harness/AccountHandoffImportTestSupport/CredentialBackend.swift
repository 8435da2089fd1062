import AccountHandoffImport
import AccountHandoffReferenceStore
import AccountHandoffSecretService

/// Where the import tests keep credentials: the reference store's 0600 files, or the Secret
/// Service (with the reference store's SQLite metadata either way).
package enum CredentialBackend: Sendable, Hashable, CustomStringConvertible {
    /// The reference store's credential files.
    case files
    /// The Secret Service, with items in this namespace.
    case keyring(namespace: String)

    /// The kind's name: `files` or `keyring` (the crash probe's `--credentials` value).
    package var kind: String {
        switch self {
        case .files: "files"
        case .keyring: "keyring"
        }
    }

    package var description: String { kind }

    /// The credential store over `reference` (itself for files), with `hook` at every step
    /// inside a Secret Service store.
    package func credentialStore(_ reference: ReferenceAccountStore, hook: Interposer? = nil) -> any CredentialStore {
        switch self {
        case .files:
            return reference
        case .keyring(let namespace):
            var stepHook: SecretServiceStepHook?
            if let hook {
                stepHook = { step in TransactionPoint(step).flatMap(hook) }
            }
            return SecretServiceCredentialStore(namespace: namespace, stepHook: stepHook)
        }
    }

    /// The points a successful import reaches with this backend.
    package var successPath: [TransactionPoint] {
        TransactionPoint.allCases.filter { !$0.isOnDiscardPath && reaches($0) }
    }

    /// The points an import with a failing validation reaches with this backend.
    package var validationFailurePath: [TransactionPoint] {
        TransactionPoint.allCases.filter { $0.isOnValidationFailurePath && reaches($0) }
    }

    /// Whether an import with this backend passes `point` (the files' and the keyring's own
    /// steps differ; the steps around store calls are common).
    package func reaches(_ point: TransactionPoint) -> Bool {
        switch (self, point) {
        case (.files, .activateActiveItemStored): false
        case (.keyring, .stageFileCreated), (.keyring, .stageFileWritten), (.keyring, .stageFileSynced),
             (.keyring, .activateRenamed), (.keyring, .discardUnlinked): false
        default: true
        }
    }
}
