import AccountHandoff

/// One change to the stored accounts, applied by ``AccountMetadataStore/commit(_:if:)`` in a
/// single transaction. The change makes `credential` (a staged item) the account's pending
/// credential; activation follows.
public enum AccountChange: Hashable, Sendable {
    /// Inserts a new account under a new local ID. The link ID must not be stored yet.
    case add(LocalAccountID, AccountMetadata, credential: StagedCredential)
    /// Overwrites every metadata field of an existing account in place (same local ID,
    /// revision incremented), including its link ID.
    case replace(LocalAccountID, AccountMetadata, credential: StagedCredential)

    /// The local ID the change writes.
    public var account: LocalAccountID {
        switch self {
        case .add(let id, _, _), .replace(let id, _, _): id
        }
    }

    /// The metadata the change writes, preserved byte for byte.
    public var metadata: AccountMetadata {
        switch self {
        case .add(_, let metadata, _), .replace(_, let metadata, _): metadata
        }
    }

    /// The staged credential that becomes the account's credential.
    public var credential: StagedCredential {
        switch self {
        case .add(_, _, let credential), .replace(_, _, let credential): credential
        }
    }

    /// The pending activation the change records.
    public var pendingActivation: PendingActivation {
        PendingActivation(account: account, credential: credential)
    }
}

/// The app's account-metadata store (for example its SQLite `accounts` table). It never
/// holds a secret: it records which credential item belongs to which account.
///
/// Every write happens in one transaction. The coordinator relies on exactly these
/// guarantees:
/// - ``commit(_:if:)`` is atomic: afterwards either the change and its pending activation
///   are stored, or nothing changed.
/// - ``pendingActivations()`` lists every committed change whose activation has not been
///   finished with ``finishActivation(_:)``.
public protocol AccountMetadataStore: Sendable {
    /// Checks that a write could succeed now (reachable, writable, not corrupt).
    ///
    /// - Throws: the problem, before any password travels.
    func checkMetadataWritable() throws(AccountStoreError)

    /// Every stored account, in a stable order.
    func accounts() throws(AccountStoreError) -> [StoredAccount]

    /// In one write transaction: reads the current accounts, evaluates `precondition` on them
    /// and, only if it holds, applies `change` and records its pending activation.
    ///
    /// - Throws: ``AccountStoreError/changedMeanwhile`` when `precondition` is false,
    ///   ``AccountStoreError/linkIDAlreadyStored`` when an added link ID exists,
    ///   ``AccountStoreError/accountNotFound(_:)`` when a replaced account is gone; nothing
    ///   is changed then.
    func commit(_ change: AccountChange, if precondition: ([StoredAccount]) -> Bool) throws(AccountStoreError)

    /// Committed changes whose credential activation has not finished.
    func pendingActivations() throws(AccountStoreError) -> [PendingActivation]

    /// Records that `pending` was activated. Does nothing if it is no longer pending.
    func finishActivation(_ pending: PendingActivation) throws(AccountStoreError)

    /// Marks an import as running (shared with other imports) until the lease is released.
    func acquireImportLease() throws(AccountStoreError) -> ImportLease

    /// Claims the store exclusively for recovery, or returns `nil` at once when an import
    /// holds a lease (in this process or another).
    func acquireRecoveryLease() throws(AccountStoreError) -> ImportLease?
}
