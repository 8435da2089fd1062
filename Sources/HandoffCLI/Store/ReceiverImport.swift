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

    /// The check's answer, once the account was checked.
    let checked = CheckRecord()
    /// Whether the person named a certificate authority (`--ca-file`).
    let trustsOwnAuthority: Bool

    /// An import into `store`, opened (and recovered) by ``ReceiverStore/openForImport(_:requested:console:)``.
    init(_ store: ReceiverStore, validation: Validation) {
        let validator: any AccountValidator = switch validation {
        case .imap(let configuration): IMAPValidator(configuration: configuration)
        case .skipped: UncheckedAccounts()
        }
        self.store = store.metadata
        self.coordinator = ImportCoordinator(metadataStore: store.metadata, credentialStore: store.credentials,
                                             validator: RecordingValidator(validator: validator, record: checked))
        self.validates = if case .imap = validation { true } else { false }
        self.trustsOwnAuthority = if case .imap(let configuration) = validation, case .certificateAuthorityFile = configuration.trust { true } else { false }
    }

    /// What only this tool can add to a failed check: an untrusted certificate may come from
    /// an authority of the server's own, which `--ca-file` names.
    var adviceAfterFailure: String? {
        guard case .failed(.untrustedCertificate)? = checked.result, !trustsOwnAuthority else { return nil }
        return sentenceCatalog.sentence("store.advice.caFile", in: .cli)
    }
}

/// The validator's last answer (no secret), for the ending's advice.
final class CheckRecord: @unchecked Sendable {
    // Safety of @unchecked Sendable: `last` is only touched under `lock`.
    private let lock = NSLock()
    private var last: ValidationResult?

    var result: ValidationResult? { lock.withLock { last } }
    func record(_ result: ValidationResult) { lock.withLock { last = result } }
}

/// A validator that records its inner validator's answer.
private struct RecordingValidator: AccountValidator {
    let validator: any AccountValidator
    let record: CheckRecord

    func checkReady() throws(ValidationFailure) { try validator.checkReady() }

    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult {
        let result = await validator.validate(account, credential: credential)
        record.record(result)
        return result
    }
}

/// Accepts every account without contacting its server: `handoff receive --no-validation`.
struct UncheckedAccounts: AccountValidator {
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult { .notChecked }
}
