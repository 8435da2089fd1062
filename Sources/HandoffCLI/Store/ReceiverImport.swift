import AccountHandoff
import AccountHandoffIMAPValidation
import AccountHandoffImport
import AccountHandoffReferenceStore
import Foundation

/// The receiving side's import: the receiver's store (SQLite metadata, passwords in the
/// keyring or in 0600 files) behind the import coordinator that the receiver session uses as
/// its importer: it settles collisions before the password travels, then stages, validates
/// over TLS and commits or rolls back.
final class ReceiverImport: Sendable {
    /// How the account is checked against its mail server before the commit.
    enum Validation {
        /// Log in over TLS with this configuration.
        case imap(IMAPValidatorConfiguration)
        /// Store without logging in (the person asked, with --no-validation).
        case skipped
    }

    let store: ReferenceAccountStore
    let coordinator: ImportCoordinator
    /// Whether the account is checked with its mail server before the commit.
    let validates: Bool

    /// An import into `store`, opened (and recovered) by ``ReceiverStore/openForImport(_:requested:console:)``.
    init(_ store: ReceiverStore, validation: Validation) {
        let validator: any AccountValidator = switch validation {
        case .imap(let configuration): IMAPValidator(configuration: configuration)
        case .skipped: UncheckedAccounts()
        }
        self.store = store.metadata
        self.coordinator = ImportCoordinator(metadataStore: store.metadata, credentialStore: store.credentials, validator: validator)
        self.validates = if case .imap = validation { true } else { false }
    }
}

/// Accepts every account without contacting its server: `handoff receive --no-validation`.
struct UncheckedAccounts: AccountValidator {
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult { .notChecked }
}
