import AccountHandoff
import AccountHandoffIMAPValidation
import AccountHandoffImport
import AccountHandoffReferenceStore
import Foundation

/// The receiving side's import: the receiver's store (SQLite metadata, passwords in the
/// keyring or in 0600 files) behind the import coordinator, which settles collisions before
/// the password travels, then stages, validates over TLS and commits or rolls back.
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

    /// An import into `store`, opened (and recovered) by ``ReceiverStore/openForImport(_:requested:console:)``.
    init(_ store: ReceiverStore, validation: Validation, console: Console) {
        let validator: any AccountValidator = switch validation {
        case .imap(let configuration): IMAPValidator(configuration: configuration)
        case .skipped: UncheckedAccounts()
        }
        self.store = store.metadata
        self.coordinator = ImportCoordinator(metadataStore: store.metadata, credentialStore: store.credentials, validator: validator)
        self.console = console
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
