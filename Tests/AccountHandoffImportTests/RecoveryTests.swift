import AccountHandoff
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffTestSupport
import Foundation
import Testing

/// What recovery does with each kind of leftover, built directly in the store.
@Suite struct RecoveryTests {
    static func metadata() throws -> AccountMetadata {
        try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Ada", emailAddress: "ada@example.org",
                            username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
    }

    static func coordinator(_ store: ReferenceAccountStore) -> ImportCoordinator {
        ImportCoordinator(metadataStore: store, credentialStore: store, validator: NoServerNeeded())
    }

    /// Recovery never validates; a validator that is never called.
    struct NoServerNeeded: AccountValidator {
        func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult {
            Issue.record("recovery must not validate")
            return .failed(.cancelled)
        }
    }

    @Test func committedButUnactivatedCredentialIsActivated() async throws {
        let scratch = try ImportFixtures.scratchDirectory()
        defer { ImportFixtures.remove(scratch) }
        let store = try await blocking { try ReferenceAccountStore.open(at: scratch.appendingPathComponent("store")) }
        let id = LocalAccountID.random()
        let staged = try await blocking { try store.stage(SecretBytes(utf8: "committed password")) }
        try await blocking { try store.commit(.add(id, try Self.metadata(), credential: staged)) { _ in true } }
        // Before recovery, a reader already gets the committed credential.
        #expect(try await blocking { try store.credential(for: id) }.constantTimeEquals(SecretBytes(utf8: "committed password")))
        let report = try await blocking { try Self.coordinator(store).recover() }
        #expect(report.completedActivations == [id])
        #expect(try await blocking { try store.pendingActivations() }.isEmpty)
        #expect(try await blocking { try store.stagedCredentials() }.isEmpty)
        #expect(try await blocking { try store.credential(for: id) }.constantTimeEquals(SecretBytes(utf8: "committed password")))
    }

    @Test func pendingMarkerOfAFinishedActivationIsCleared() async throws {
        let scratch = try ImportFixtures.scratchDirectory()
        defer { ImportFixtures.remove(scratch) }
        let store = try await blocking { try ReferenceAccountStore.open(at: scratch.appendingPathComponent("store")) }
        let id = LocalAccountID.random()
        let staged = try await blocking { try store.stage(SecretBytes(utf8: "pw")) }
        try await blocking { try store.commit(.add(id, try Self.metadata(), credential: staged)) { _ in true } }
        try await blocking { try store.activate(staged, for: id) }
        let report = try await blocking { try Self.coordinator(store).recover() }
        #expect(report.completedActivations.isEmpty)
        #expect(try await blocking { try store.pendingActivations() }.isEmpty)
        #expect(try await blocking { try store.accountsWithCredential() } == [id])
    }

    @Test func orphanCredentialIsDeletedAndAnAccountWithoutOneIsReported() async throws {
        let scratch = try ImportFixtures.scratchDirectory()
        defer { ImportFixtures.remove(scratch) }
        let directory = scratch.appendingPathComponent("store")
        let store = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let orphan = LocalAccountID.random()
        try await blocking { try store.activate(try store.stage(SecretBytes(utf8: "no account")), for: orphan) }
        let bare = LocalAccountID.random()
        try await blocking { try ImportScenario.seed(store, id: bare, metadata: try Self.metadata(), password: SecretBytes(utf8: "pw")) }
        try await blocking { try store.deleteCredential(of: bare) }
        let report = try await blocking { try Self.coordinator(store).recover() }
        #expect(report.removedOrphanCredentials == [orphan])
        #expect(report.accountsWithoutCredential == [bare])
        #expect(StoreFiles.credentialFileNames(directory).isEmpty)
        await #expect(throws: CredentialStoreError.credentialNotFound) { try await blocking { try store.credential(for: bare) } }
    }

    @Test func unrelatedFilesInTheCredentialsDirectoryAreLeftAlone() async throws {
        let scratch = try ImportFixtures.scratchDirectory()
        defer { ImportFixtures.remove(scratch) }
        let directory = scratch.appendingPathComponent("store")
        let store = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let note = StoreFiles.credentials(directory).appendingPathComponent("README")
        try Data("not ours".utf8).write(to: note)
        #expect(try await blocking { try Self.coordinator(store).recover() }.foundNothing)
        #expect(FileManager.default.fileExists(atPath: note.path))
    }
}
