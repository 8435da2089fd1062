import AccountHandoff
import AccountHandoffDovecot
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import Foundation

/// A reference store in a scratch directory with a coordinator that validates against the
/// shared Dovecot. Call ``remove()`` at the end.
struct ImportHarness {
    let scratch: URL
    let directory: URL
    let server: ThrowawayDovecot
    let store: ReferenceAccountStore
    let coordinator: ImportCoordinator

    init(newAccountID: LocalAccountID? = nil) throws {
        server = try SharedDovecot.server()
        scratch = try ImportFixtures.scratchDirectory()
        directory = scratch.appendingPathComponent("store")
        store = try ReferenceAccountStore.open(at: directory)
        coordinator = Self.coordinator(store, server: server, newAccountID: newAccountID)
    }

    /// A coordinator over `store` (a second one models another process on the same store).
    static func coordinator(_ store: some AccountMetadataStore & CredentialStore, server: ThrowawayDovecot,
                            newAccountID: LocalAccountID? = nil) -> ImportCoordinator {
        ImportCoordinator(metadataStore: store, credentialStore: store, validator: ImportFixtures.validator(server),
                          makeAccountID: { newAccountID ?? .random() })
    }

    /// An account on the shared server that validates with ``ImportFixtures/rightPassword()``.
    func offer(linkID: AccountLinkID = ImportScenario.offeredLinkID) throws -> AccountMetadata {
        try ImportFixtures.account(server, linkID: linkID, displayName: "Ada (from the other device)")
    }

    /// Stores an old account directly.
    @discardableResult
    func seed(_ metadata: AccountMetadata, id: LocalAccountID = ImportScenario.oldAccountID) throws -> StoredAccount {
        try ImportScenario.seed(store, id: id, metadata: metadata, password: ImportFixtures.oldPassword())
        return StoredAccount(id: id, metadata: metadata, revision: 1)
    }

    /// What the store holds now, with passwords identified as old or new.
    func snapshot() throws -> StoreSnapshot {
        try StoreSnapshot.take(directory, oldPassword: ImportFixtures.oldPassword(), newPassword: ImportFixtures.rightPassword())
    }

    func remove() { ImportFixtures.remove(scratch) }
}
