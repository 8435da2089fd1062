import AccountHandoff
import AccountHandoffDovecot
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffTestSupport
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

    /// Stores an old account directly (on the I/O pool: the stores block).
    @discardableResult
    func seed(_ metadata: AccountMetadata, id: LocalAccountID = ImportScenario.oldAccountID) async throws -> StoredAccount {
        let (store, credentials) = (store, credentials)
        try await blocking {
            try ImportScenario.seed(store, credentials: credentials, id: id, metadata: metadata, password: ImportFixtures.oldPassword())
        }
        return StoredAccount(id: id, metadata: metadata, revision: 1)
    }

    /// What the store holds now, with passwords identified as old or new.
    func snapshot() async throws -> StoreSnapshot {
        let (directory, backend) = (directory, backend)
        return try await blocking {
            try StoreSnapshot.take(directory, backend: backend, oldPassword: ImportFixtures.oldPassword(),
                                   newPassword: ImportFixtures.rightPassword())
        }
    }

    /// Every credential item, named as the reference store names its files (without
    /// `.credential`): `staged-<uuid>` and `account-<local ID>`, sorted.
    func credentialItems() async throws -> [String] {
        let credentials = credentials
        return try await blocking {
            (try credentials.stagedCredentials().map(\.name) + credentials.accountsWithCredential().map { "account-\($0)" }).sorted()
        }
    }

    func remove() {
        // Keyring items of a finished test go with the namespace: what is left is deleted on the
        // I/O pool (the keyring blocks), after the test.
        if case .keyring = backend {
            let credentials = credentials
            BlockingIOPool.shared.execute { StoreSnapshot.clear(credentials) }
        }
        ImportFixtures.remove(scratch)
    }
}
