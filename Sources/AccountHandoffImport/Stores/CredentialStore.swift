import AccountHandoff

/// The app's credential store with staging (the Keychain on Apple platforms, 0600 files in
/// the reference store).
///
/// An account's *active* credential is found by its local ID. A *staged* credential lives
/// under a fresh name that nothing refers to until a metadata commit records it.
public protocol CredentialStore: Sendable {
    /// Checks that a credential could be written now.
    ///
    /// - Throws: the problem, before any password travels.
    func checkCredentialsWritable() throws(CredentialStoreError)

    /// Writes `credential` under a fresh item name and returns that name. The bytes go from
    /// guarded memory to the store; nothing else refers to the item yet.
    func stage(_ credential: SecretBytes) throws(CredentialStoreError) -> StagedCredential

    /// Makes the staged item the active credential of `account`, replacing the previous one,
    /// and removes the staged name.
    ///
    /// - Throws: ``CredentialStoreError/credentialNotFound`` when the staged item does not
    ///   exist (for example because an earlier activation already consumed it).
    func activate(_ staged: StagedCredential, for account: LocalAccountID) throws(CredentialStoreError)

    /// Deletes a staged item; a missing item counts as success.
    func discard(_ staged: StagedCredential) throws(CredentialStoreError)

    /// Every staged item that exists, in a stable order.
    func stagedCredentials() throws(CredentialStoreError) -> [StagedCredential]

    /// Every account that has an active credential, in a stable order.
    func accountsWithCredential() throws(CredentialStoreError) -> [LocalAccountID]

    /// Deletes the active credential of `account`; a missing item counts as success.
    func deleteCredential(of account: LocalAccountID) throws(CredentialStoreError)
}
