import AccountHandoff
import AccountHandoffImport
import AccountHandoffReferenceStore
import AccountHandoffSecretService
import Foundation

/// Everything observable in a reference store (with its credentials in files or the Secret
/// Service), with each credential identified by which of the known passwords it is (the bytes
/// are compared in guarded memory, never revealed).
package struct StoreSnapshot: Hashable, CustomStringConvertible {
    /// Which known password a stored credential is.
    package enum Credential: String, Hashable, Sendable {
        case old, new, other, missing
    }

    /// One account with its credential, as a reader of the store sees it.
    package struct Account: Hashable, CustomStringConvertible {
        package let id: LocalAccountID
        package let metadata: AccountMetadata
        package let credential: Credential

        package init(id: LocalAccountID, metadata: AccountMetadata, credential: Credential) {
            self.id = id
            self.metadata = metadata
            self.credential = credential
        }

        package var description: String { "\(id): \(metadata.displayName) / \(metadata.username) [\(credential.rawValue) password]" }
    }

    package let accounts: [Account]
    package let staged: [StagedCredential]
    package let pending: [PendingActivation]
    package let credentialFiles: [LocalAccountID]

    /// Reads the store in `directory`, its credentials in `backend`.
    package static func take(_ directory: URL, backend: CredentialBackend = .files, oldPassword: SecretBytes,
                             newPassword: SecretBytes) throws -> StoreSnapshot {
        let store = try ReferenceAccountStore.open(at: directory)
        let credentials = backend.credentialStore(store)
        let pending = try store.pendingActivations()
        let accounts = try store.listAccounts().map { stored -> Account in
            let credential: Credential
            do throws(CredentialStoreError) {
                let secret = try committedCredential(of: stored.id, backend: backend, store: store, pending: pending)
                credential = secret.constantTimeEquals(oldPassword) ? .old : secret.constantTimeEquals(newPassword) ? .new : .other
            } catch .credentialNotFound {
                credential = .missing
            }
            return Account(id: stored.id, metadata: stored.metadata, credential: credential)
        }
        return StoreSnapshot(accounts: accounts, staged: try credentials.stagedCredentials(), pending: pending,
                             credentialFiles: try credentials.accountsWithCredential())
    }

    /// Deletes every staged and active item of `credentials`, best effort (a test's keyring
    /// namespace when the test ends). Blocks: run it on the I/O pool.
    package static func clear(_ credentials: any CredentialStore) {
        try? credentials.stagedCredentials().forEach { try credentials.discard($0) }
        try? credentials.accountsWithCredential().forEach { try credentials.deleteCredential(of: $0) }
    }

    /// The credential a reader of the account finds: the pending staged item while its
    /// activation is unfinished, the active one otherwise.
    private static func committedCredential(of account: LocalAccountID, backend: CredentialBackend, store: ReferenceAccountStore,
                                            pending: [PendingActivation]) throws(CredentialStoreError) -> SecretBytes {
        switch backend {
        case .files:
            return try store.credential(for: account)
        case .keyring(let namespace):
            let keyring = SecretServiceCredentialStore(namespace: namespace)
            if let staged = pending.first(where: { $0.account == account })?.credential {
                do { return try keyring.credential(staged: staged) } catch .credentialNotFound {}  // activated meanwhile
            }
            return try keyring.credential(of: account)
        }
    }

    /// Whether nothing is left over: no staged file, no pending activation, and exactly one
    /// credential file per account.
    package var isClean: Bool {
        staged.isEmpty && pending.isEmpty && credentialFiles == accounts.map(\.id).sorted()
    }

    package var description: String {
        "accounts \(accounts), staged \(staged), pending \(pending.map { "\($0.account)->\($0.credential)" }), files \(credentialFiles)"
    }
}
