import AccountHandoff

/// How an import ended. Exactly one per prepared import.
public enum ImportOutcome: Hashable, Sendable {
    /// Validated and committed.
    case imported(ImportedAccountRecord)
    /// The mail server did not accept the account; nothing was changed.
    case validationFailed(ValidationFailure, account: AccountMetadata)
    /// Not imported; nothing was changed (except where ``ImportError/commitUncertain(_:)`` says otherwise).
    case declined(DeclineReason)

    /// The receipt the receiver sends back to the sending device (Spec 3.6): what happened,
    /// in the words the sender's person should hear.
    public var receiptStatus: ReceiptStatus {
        switch self {
        case .imported: .imported
        case .validationFailed(.cancelled, _): .cancelled
        case .validationFailed: .validationFailed
        case .declined(.cancelledByPerson): .cancelled
        case .declined(.failed(.metadataStore)), .declined(.failed(.credentialStore)), .declined(.failed(.commitUncertain)):
            .storeFailed
        case .declined(.failed): .declined
        }
    }
}

/// Why an import was declined.
public enum DeclineReason: Hashable, Sendable {
    /// The person chose not to import (for example instead of replacing an account).
    case cancelledByPerson
    /// The import failed before its commit, or lost against a concurrent change.
    case failed(ImportError)
}

/// The account an import committed.
public struct ImportedAccountRecord: Hashable, Sendable {
    /// The stored account as committed (a new local ID when added, the old one when replaced).
    public let account: StoredAccount
    /// The account it replaced, as it was before; `nil` when the import added an account.
    public let replaced: StoredAccount?
    /// Whether the staged credential was already activated.
    public let activation: Activation
    /// Whether the account's mail server accepted the password before the commit; `false`
    /// when the validator checked nothing (``ValidationResult/notChecked``).
    public let checkedWithServer: Bool

    /// Describes a committed import.
    public init(account: StoredAccount, replaced: StoredAccount?, activation: Activation, checkedWithServer: Bool = true) {
        self.account = account
        self.replaced = replaced
        self.activation = activation
        self.checkedWithServer = checkedWithServer
    }

    /// The state of the credential after the commit.
    public enum Activation: Hashable, Sendable {
        /// The staged credential is the account's active credential.
        case complete
        /// Activation failed after the commit; the committed staged credential is the
        /// account's credential until ``ImportCoordinator/recover()`` finishes activation.
        case deferredToRecovery(ImportError)
    }
}
