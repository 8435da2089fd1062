import AccountHandoff
import AccountHandoffIMAPValidation
import AccountHandoffImport
import AccountHandoffReferenceStore
import Foundation

/// The receiving side's import: the reference store (SQLite metadata, 0600 credential files
/// standing in for the Keychain) behind the import coordinator, which settles collisions
/// before the password travels, then stages, validates over TLS and commits or rolls back.
final class ReceiverImport: AccountImporter, @unchecked Sendable {
    // Safety of @unchecked Sendable: `prepared` is only touched under `lock`.
    /// How the account is checked against its mail server before the commit.
    enum Validation {
        /// Log in over TLS with this configuration.
        case imap(IMAPValidatorConfiguration)
        /// Store without logging in (the person asked, with --no-validation).
        case skipped
    }

    let store: ReferenceAccountStore
    private let coordinator: ImportCoordinator
    private let console: Console
    private let lock = NSLock()
    private var prepared: PreparedImport?

    private init(store: ReferenceAccountStore, coordinator: ImportCoordinator, console: Console) {
        self.store = store
        self.coordinator = coordinator
        self.console = console
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
        return ReceiverImport(store: store, coordinator: coordinator, console: console)
    }

    /// Before the password travels: checks the store and finds stored accounts the offer
    /// collides with (the same link ID, or the same address on the same server).
    func prepare(_ offer: AccountMetadata) throws(CLIError) -> ImportConflict? {
        do {
            let prepared = try coordinator.prepare(offer: offer)
            lock.withLock { self.prepared = prepared }
            return prepared.conflict
        } catch {
            throw CLIError(ImportOutcome.declined(.failed(error)).message, exitCode: .failure)
        }
    }

    /// Records the person's answer to the collision; `.cancel` ends the import.
    func choose(_ choice: ImportChoice) throws(CLIError) {
        guard let prepared = lock.withLock({ prepared }) else { return }
        do { try prepared.choose(choice) } catch {
            throw CLIError(ImportOutcome.declined(.failed(error)).message, exitCode: .failure)
        }
    }

    /// The session ended before the account arrived: nothing was changed.
    func abandon() {
        lock.withLock { prepared }?.cancel()
    }

    func importAccount(_ account: ImportedAccount) async -> ReceiptStatus {
        defer { account.credential.wipe() }  // the delivered buffer is ours: wipe it when done
        guard let prepared = lock.withLock({ prepared }) else {
            console.error("The account arrived without having been prepared; it was not imported.")
            return .declined
        }
        let outcome = await prepared.complete(with: account)
        outcome.receiptStatus == .imported ? console.line(outcome.message) : console.error(outcome.message)
        return outcome.receiptStatus
    }
}

/// Accepts every account without contacting its server: `handoff receive --no-validation`.
private struct UncheckedAccounts: AccountValidator {
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult { .valid }
}
