import AccountHandoff
import AccountHandoffDovecot
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import Foundation

/// A reference store in a scratch directory, its credentials in files or the shared throwaway
/// Secret Service, with a coordinator that validates against the shared Dovecot. Call
/// ``remove()`` at the end.
struct ImportHarness {
    let scratch: URL
    let directory: URL
    let server: ThrowawayDovecot
    let store: ReferenceAccountStore
    let backend: CredentialBackend
    /// Where credentials live: `store` itself, or a Secret Service store.
    let credentials: any CredentialStore
    let coordinator: ImportCoordinator

    init(newAccountID: LocalAccountID? = nil, credentials kind: CredentialKind = .files) throws {
        server = try SharedDovecot.server()
        scratch = try ImportFixtures.scratchDirectory()
        directory = scratch.appendingPathComponent("store")
        store = try ReferenceAccountStore.open(at: directory)
        backend = try kind.backend()
        credentials = backend.credentialStore(store)
        coordinator = Self.coordinator(store, credentials: credentials, server: server, newAccountID: newAccountID)
    }

    /// A coordinator over `store` (a second one models another process on the same store).
    static func coordinator(_ store: some AccountMetadataStore & CredentialStore, server: ThrowawayDovecot,
                            newAccountID: LocalAccountID? = nil) -> ImportCoordinator {
        coordinator(store, credentials: store, server: server, newAccountID: newAccountID)
    }

    /// A coordinator over `store` for metadata and `credentials`.
    static func coordinator(_ store: some AccountMetadataStore, credentials: any CredentialStore, server: ThrowawayDovecot,
                            newAccountID: LocalAccountID? = nil) -> ImportCoordinator {
        ImportCoordinator(metadataStore: store, credentialStore: credentials, validator: ImportFixtures.validator(server),
                          makeAccountID: { newAccountID ?? .random() })
    }

    /// An account on the shared server that validates with ``ImportFixtures/rightPassword()``.
    func offer(linkID: AccountLinkID = ImportScenario.offeredLinkID) throws -> AccountMetadata {
        try ImportFixtures.account(server, linkID: linkID, displayName: "Ada (from the other device)")
    }

    /// Stores an old account directly.
    @discardableResult
    func seed(_ metadata: AccountMetadata, id: LocalAccountID = ImportScenario.oldAccountID) throws -> StoredAccount {
        try ImportScenario.seed(store, credentials: credentials, id: id, metadata: metadata, password: ImportFixtures.oldPassword())
        return StoredAccount(id: id, metadata: metadata, revision: 1)
    }

    /// What the store holds now, with passwords identified as old or new.
    func snapshot() throws -> StoreSnapshot {
        try StoreSnapshot.take(directory, backend: backend, oldPassword: ImportFixtures.oldPassword(), newPassword: ImportFixtures.rightPassword())
    }

    /// Every credential item, named as the reference store names its files (without
    /// `.credential`): `staged-<uuid>` and `account-<local ID>`, sorted.
    func credentialItems() throws -> [String] {
        (try credentials.stagedCredentials().map(\.name) + credentials.accountsWithCredential().map { "account-\($0)" }).sorted()
    }

    func remove() {
        // Keyring items of a finished test go with the namespace: delete what is left.
        if case .keyring = backend {
            try? credentials.stagedCredentials().forEach { try credentials.discard($0) }
            try? credentials.accountsWithCredential().forEach { try credentials.deleteCredential(of: $0) }
        }
        ImportFixtures.remove(scratch)
    }
}
