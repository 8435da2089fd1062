import AccountHandoff
import AccountHandoffImport
import Foundation

extension ReferenceAccountStore: CredentialStore {
    /// Checks the credentials directory again and creates and removes a probe file in it.
    public func checkCredentialsWritable() throws(CredentialStoreError) {
        try files.checkWritable()
    }

    /// Writes a new `staged-<uuid>.credential` file (mode 0600, synced with its directory).
    public func stage(_ credential: SecretBytes) throws(CredentialStoreError) -> StagedCredential {
        try files.stage(credential)
    }

    /// Renames the staged file over `account-<id>.credential` and syncs the directory.
    public func activate(_ staged: StagedCredential, for account: LocalAccountID) throws(CredentialStoreError) {
        try files.activate(staged, for: account)
    }

    /// Unlinks the staged file; a missing one is success.
    public func discard(_ staged: StagedCredential) throws(CredentialStoreError) {
        try files.remove(CredentialFiles.stagedName(staged), step: .discardUnlinked)
    }

    /// The `staged-*.credential` files present.
    public func stagedCredentials() throws(CredentialStoreError) -> [StagedCredential] {
        try files.stagedCredentials()
    }

    /// Where `account`'s password file is (or would be): `credentials/account-<id>.credential`
    /// in the store directory. The file is not read.
    public func credentialFile(for account: LocalAccountID) -> URL {
        directory.appendingPathComponent(Self.credentialsDirectoryName).appendingPathComponent(CredentialFiles.activeName(account))
    }

    /// The accounts with an `account-*.credential` file.
    public func accountsWithCredential() throws(CredentialStoreError) -> [LocalAccountID] {
        try files.accountsWithCredential()
    }

    /// Unlinks `account-<id>.credential`; a missing one is success.
    public func deleteCredential(of account: LocalAccountID) throws(CredentialStoreError) {
        try files.remove(CredentialFiles.activeName(account), step: nil)
    }
}
