import AccountHandoff
import AccountHandoffIMAPValidation
import AccountHandoffImport
import AccountHandoffReferenceStore
import Foundation

/// The receiving side's store: the reference store (SQLite metadata, 0600 credential files
/// standing in for the Keychain) behind the import coordinator that the receiver session
/// uses as its importer: it settles collisions before the password travels, then stages,
/// validates over TLS and commits or rolls back.
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

    private init(store: ReferenceAccountStore, coordinator: ImportCoordinator, validates: Bool) {
        self.store = store
        self.coordinator = coordinator
        self.validates = validates
    }

    /// Opens (creating it if needed) the store in `directory`, tightening permissions that are
    /// open to others with a warning, and finishes or undoes what a crash left behind.
    static func open(_ directory: URL, validation: Validation, console: Console) throws(CLIError) -> ReceiverImport {
        let store: ReferenceAccountStore
        do { store = try ReferenceAccountStore.open(at: directory, options: ReferenceStoreOptions(loosePermissions: .tighten)) } catch {
            throw CLIError("The store \(directory.path) cannot be used: \(error.description)", exitCode: .failure)
        }
        for warning in store.warnings { console.error("Warning: \(warning.description)") }
        let validator: any AccountValidator = switch validation {
        case .imap(let configuration): IMAPValidator(configuration: configuration)
        case .skipped: UncheckedAccounts()
        }
        let coordinator = ImportCoordinator(metadataStore: store, credentialStore: store, validator: validator)
        do {
            let report = try coordinator.recover()
            if !report.foundNothing { console.line("The store finished or undid an import that was interrupted earlier.") }
        } catch {
            throw CLIError("The store \(directory.path) could not finish an interrupted import: \(error.description)", exitCode: .failure)
        }
        return ReceiverImport(store: store, coordinator: coordinator, validates: { if case .imap = validation { true } else { false } }())
    }

}

/// Accepts every account without contacting its server: `handoff receive --no-validation`.
private struct UncheckedAccounts: AccountValidator {
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult { .valid }
}
