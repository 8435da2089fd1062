import AccountHandoff

/// One account as the metadata store holds it. It has no secret.
public struct StoredAccount: Hashable, Sendable {
    /// This device's key for the account.
    public let id: LocalAccountID
    /// The account's metadata, with its link ID exactly as it arrived.
    public let metadata: AccountMetadata
    /// Incremented by every change to the account; lets a commit detect that the account
    /// changed after the person saw it.
    public let revision: UInt64

    /// Wraps the stored fields.
    public init(id: LocalAccountID, metadata: AccountMetadata, revision: UInt64) {
        self.id = id
        self.metadata = metadata
        self.revision = revision
    }
}

/// A committed account whose staged credential has not yet been made its active credential.
///
/// The metadata commit is the import's single point of no return; activation follows it and
/// is idempotent, so recovery can finish it after a crash.
public struct PendingActivation: Hashable, Sendable {
    /// The account the credential belongs to.
    public let account: LocalAccountID
    /// The staged credential that is the account's credential until activation finishes.
    public let credential: StagedCredential

    /// Pairs an account with its staged credential.
    public init(account: LocalAccountID, credential: StagedCredential) {
        self.account = account
        self.credential = credential
    }
}
