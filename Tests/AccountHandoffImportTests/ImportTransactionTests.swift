import AccountHandoff
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffTestSupport
import Foundation
import Testing

/// Whole imports into the reference store, validated against the real Dovecot, with the
/// credentials in the reference store's files and in the Secret Service.
@Suite struct ImportTransactionTests {
    @Test(arguments: CredentialKind.allCases)
    func newAccountIsImportedWithItsLinkIDByteForByte(credentials: CredentialKind) async throws {
        let harness = try await blocking { try ImportHarness(newAccountID: ImportScenario.newAccountID, credentials: credentials) }
        defer { harness.remove() }
        let offer = try harness.offer()
        let prepared = try await blocking { try harness.coordinator.prepare(offer: offer) }
        #expect(prepared.conflict == nil)
        #expect(prepared.recovery.foundNothing)
        let outcome = await prepared.complete(metadata: offer, credential: try ImportFixtures.rightPassword())
        let committed = StoredAccount(id: ImportScenario.newAccountID, metadata: offer, revision: 1)
        #expect(outcome == .imported(ImportedAccountRecord(account: committed, replaced: nil, activation: .complete)))
        #expect(outcome.receiptStatus == .imported)
        #expect(outcome.message == "The account ada@example.org was imported. The mail server accepted the password, so you can use it now.")
        let snapshot = try await harness.snapshot()
        #expect(snapshot.accounts == [.init(id: ImportScenario.newAccountID, metadata: offer, credential: .new)])
        #expect(snapshot.accounts.first?.metadata.linkID.bytes == ImportScenario.offeredLinkID.bytes)
        #expect(snapshot.isClean)
    }

    @Test(arguments: CredentialKind.allCases)
    func replacingKeepsTheLocalIDAndReplacesEverythingElse(credentials: CredentialKind) async throws {
        let harness = try await blocking { try ImportHarness(credentials: credentials) }
        defer { harness.remove() }
        let offer = try harness.offer()
        let old = try await harness.seed(try #require(try ImportScenario.replace.oldAccount(host: offer.imapHost, port: offer.imapPort, user: "ada-old")))
        let prepared = try await blocking { try harness.coordinator.prepare(offer: offer) }
        let conflict = try #require(prepared.conflict)
        #expect(conflict.existing.map(\.account) == [old])
        #expect(conflict.existing.map(\.reasons) == [[.sameLinkID, .sameAddressAndServer]])
        #expect(conflict.allowedChoices == [.replace(old.id), .cancel])
        #expect(throws: ImportError.choiceNotAllowed(.keepBoth)) { try prepared.choose(.keepBoth) }
        try prepared.choose(.replace(old.id))
        let outcome = await prepared.complete(metadata: offer, credential: try ImportFixtures.rightPassword())
        let committed = StoredAccount(id: old.id, metadata: offer, revision: 2)
        #expect(outcome == .imported(ImportedAccountRecord(account: committed, replaced: old, activation: .complete)))
        #expect(outcome.message.contains("replaced the account ada@example.org"))
        let snapshot = try await harness.snapshot()
        #expect(snapshot.accounts == [.init(id: old.id, metadata: offer, credential: .new)])
        #expect(snapshot.isClean)
    }

    @Test(arguments: CredentialKind.allCases)
    func keepingBothAddsANewLocalAccountAndLeavesTheOldOneUntouched(credentials: CredentialKind) async throws {
        let harness = try await blocking { try ImportHarness(newAccountID: ImportScenario.newAccountID, credentials: credentials) }
        defer { harness.remove() }
        let offer = try harness.offer()
        let oldMetadata = try #require(try ImportScenario.keepBoth.oldAccount(host: offer.imapHost, port: offer.imapPort, user: "ada-work"))
        let old = try await harness.seed(oldMetadata)
        let prepared = try await blocking { try harness.coordinator.prepare(offer: offer) }
        #expect(prepared.conflict?.allowedChoices == [.replace(old.id), .keepBoth, .cancel])
        try prepared.choose(.keepBoth)
        let outcome = await prepared.complete(metadata: offer, credential: try ImportFixtures.rightPassword())
        #expect(outcome.receiptStatus == .imported)
        let snapshot = try await harness.snapshot()
        #expect(snapshot.accounts == [.init(id: old.id, metadata: oldMetadata, credential: .old),
                                      .init(id: ImportScenario.newAccountID, metadata: offer, credential: .new)])
        #expect(snapshot.isClean)
    }

    @Test(arguments: CredentialKind.allCases)
    func cancellingChangesNothingAndEndsTheImport(credentials: CredentialKind) async throws {
        let harness = try await blocking { try ImportHarness(credentials: credentials) }
        defer { harness.remove() }
        let offer = try harness.offer()
        try await harness.seed(try #require(try ImportScenario.replace.oldAccount(host: offer.imapHost, port: offer.imapPort, user: "ada-old")))
        let before = try await harness.snapshot()
        let prepared = try await blocking { try harness.coordinator.prepare(offer: offer) }
        try prepared.choose(.cancel)
        let late = await prepared.complete(metadata: offer, credential: try ImportFixtures.rightPassword())
        #expect(late == .declined(.failed(.alreadyFinished)))
        #expect(try await harness.snapshot() == before)
        #expect(throws: ImportError.alreadyFinished) { try prepared.choose(.replace(ImportScenario.oldAccountID)) }
        // The claim is released: the next offer of the same account can be prepared.
        let again = try await blocking { try harness.coordinator.prepare(offer: offer) }
        let cancelled = again.cancel()
        #expect(cancelled == .declined(.cancelledByPerson))
        #expect(cancelled.receiptStatus == .cancelled)
        #expect(cancelled.message.hasPrefix("You chose not to import the account, so nothing was changed"))
    }

    @Test(arguments: CredentialKind.allCases)
    func conflictWithoutAChoiceIsNotImported(credentials: CredentialKind) async throws {
        let harness = try await blocking { try ImportHarness(credentials: credentials) }
        defer { harness.remove() }
        let offer = try harness.offer()
        let old = try await harness.seed(try #require(try ImportScenario.replace.oldAccount(host: offer.imapHost, port: offer.imapPort, user: "ada-old")))
        let before = try await harness.snapshot()
        let prepared = try await blocking { try harness.coordinator.prepare(offer: offer) }
        let refused = await prepared.complete(metadata: offer, credential: try ImportFixtures.rightPassword())
        #expect(refused == .declined(.failed(.choiceRequired)))
        #expect(try await harness.snapshot() == before)
        // The import is still open for a choice.
        try prepared.choose(.replace(old.id))
        #expect(await prepared.complete(metadata: offer, credential: try ImportFixtures.rightPassword()).receiptStatus == .imported)
    }

    @Test(arguments: CredentialKind.allCases)
    func importingTheSameAccountTwiceNeverDuplicatesIt(credentials: CredentialKind) async throws {
        let harness = try await blocking { try ImportHarness(credentials: credentials) }
        defer { harness.remove() }
        let offer = try harness.offer()
        let first = try await blocking { try harness.coordinator.prepare(offer: offer) }
        let imported = await first.complete(metadata: offer, credential: try ImportFixtures.rightPassword())
        guard case .imported(let record) = imported else { Issue.record("first import: \(imported)"); return }
        let second = try await blocking { try harness.coordinator.prepare(offer: offer) }
        #expect(second.conflict?.allowedChoices == [.replace(record.account.id), .cancel])
        try second.choose(.replace(record.account.id))
        #expect(await second.complete(metadata: offer, credential: try ImportFixtures.rightPassword()).receiptStatus == .imported)
        let snapshot = try await harness.snapshot()
        #expect(snapshot.accounts.map(\.id) == [record.account.id])
        #expect(try await blocking { try harness.store.listAccounts() }.map(\.revision) == [2])
        #expect(StoreFiles.query(harness.directory, "SELECT count(*) FROM accounts") == ["1"])
        #expect(snapshot.isClean)
    }

    @Test(arguments: CredentialKind.allCases)
    func wrongPasswordLeavesTheOldAccountAndNoStagedLeftovers(credentials: CredentialKind) async throws {
        let harness = try await blocking { try ImportHarness(credentials: credentials) }
        defer { harness.remove() }
        let offer = try harness.offer()
        let old = try await harness.seed(try #require(try ImportScenario.replace.oldAccount(host: offer.imapHost, port: offer.imapPort, user: "ada-old")))
        let before = try await harness.snapshot()
        let prepared = try await blocking { try harness.coordinator.prepare(offer: offer) }
        try prepared.choose(.replace(old.id))
        let outcome = await prepared.complete(metadata: offer, credential: try ImportFixtures.wrongPassword())
        #expect(outcome == .validationFailed(.authenticationFailed, account: offer))
        #expect(outcome.receiptStatus == .validationFailed)
        // Before any recovery: the old account, its old password, and nothing staged.
        #expect(try await harness.snapshot() == before)
        #expect(try await harness.credentialItems() == ["account-\(old.id)"])
    }

    @Test(arguments: CredentialKind.allCases)
    func wrongPasswordForANewAccountStoresNothing(credentials: CredentialKind) async throws {
        let harness = try await blocking { try ImportHarness(credentials: credentials) }
        defer { harness.remove() }
        let offer = try harness.offer()
        let prepared = try await blocking { try harness.coordinator.prepare(offer: offer) }
        let outcome = await prepared.complete(metadata: offer, credential: try ImportFixtures.wrongPassword())
        #expect(outcome == .validationFailed(.authenticationFailed, account: offer))
        #expect(try await blocking { try harness.store.listAccounts() }.isEmpty)
        #expect(try await harness.credentialItems().isEmpty)
    }

    @Test(arguments: CredentialKind.allCases)
    func deliveredAccountMustBeTheOfferedOne(credentials: CredentialKind) async throws {
        let harness = try await blocking { try ImportHarness(credentials: credentials) }
        defer { harness.remove() }
        let offer = try harness.offer()
        let prepared = try await blocking { try harness.coordinator.prepare(offer: offer) }
        let swapped = try harness.offer(linkID: AccountLinkID(uuid: UUID()))
        let outcome = await prepared.complete(metadata: swapped, credential: try ImportFixtures.rightPassword())
        #expect(outcome == .declined(.failed(.deliveredAccountDiffersFromOffer)))
        #expect(try await blocking { try harness.store.listAccounts() }.isEmpty)
        #expect(try await harness.credentialItems().isEmpty)
    }

    @Test(arguments: CredentialKind.allCases)
    func staleLeftoversAreRemovedBeforeThePasswordTravels(credentials: CredentialKind) async throws {
        let harness = try await blocking { try ImportHarness(credentials: credentials) }
        defer { harness.remove() }
        let leftover = try await blocking { try harness.credentials.stage(SecretBytes(utf8: "from an import that crashed")) }
        let orphan = LocalAccountID.random()
        let orphanStaged = try await blocking { try harness.credentials.stage(SecretBytes(utf8: "credential without an account")) }
        try await blocking { try harness.credentials.activate(orphanStaged, for: orphan) }
        let prepared = try await blocking { try harness.coordinator.prepare(offer: try harness.offer()) }
        #expect(prepared.recovery.discardedStagedCredentials == [leftover])
        #expect(prepared.recovery.removedOrphanCredentials == [orphan])
        #expect(try await harness.credentialItems().isEmpty)
    }

    @Test func storeThatBecameUnsafeIsFoundBeforeThePasswordTravels() async throws {
        let harness = try await blocking { try ImportHarness() }
        defer { harness.remove() }
        let offer = try harness.offer()
        #expect(chmod(harness.directory.path, 0o755) == 0)
        await #expect(throws: ImportError.metadataStore(.unsafeLocation(.permissionsTooOpen(path: harness.directory.path, mode: 0o755)))) {
            try await blocking { try harness.coordinator.prepare(offer: offer) }
        }
        #expect(chmod(harness.directory.path, 0o700) == 0)
        let credentials = StoreFiles.credentials(harness.directory)
        #expect(chmod(credentials.path, 0o777) == 0)
        await #expect(throws: ImportError.credentialStore(.unsafeLocation(.permissionsTooOpen(path: credentials.path, mode: 0o777)))) {
            try await blocking { try harness.coordinator.prepare(offer: offer) }
        }
        #expect(chmod(credentials.path, 0o700) == 0)
        // A failed prepare released its claim and lease.
        _ = try await blocking { try harness.coordinator.prepare(offer: offer) }.cancel()
    }

    @Test func outcomeMessagesAreSentencesWithoutTheSecret() async throws {
        let metadata = try AccountMetadata(linkID: ImportScenario.offeredLinkID, displayName: "Ada", emailAddress: "ada@example.org",
                                           username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        let failures: [ImportError] = [
            .importInProgress(ImportScenario.offeredLinkID), .accountChangedMeanwhile, .choiceRequired, .choiceNotAllowed(.keepBoth),
            .alreadyFinished, .deliveredAccountDiffersFromOffer, .commitUncertain(.readOnly), .metadataStore(.corrupt("x")),
            .metadataStore(.readOnly), .credentialStore(.keychain(status: -34018)), .credentialStore(.keychain(status: -25308)),
            .credentialStore(.policyViolation(.fileBasedKeychainOnMacOS)),
            .credentialStore(.unsafeLocation(.symbolicLink(path: "/x"))), .metadataStore(.failed(StoreFailure(operation: "fsync", domain: .posix, code: 5))),
        ]
        let outcomes = failures.map { ImportOutcome.declined(.failed($0)) }
            + [.declined(.cancelledByPerson), .validationFailed(.timedOut, account: metadata)]
        for outcome in outcomes {
            // Spec 3.6: what the sender hears names the class of what happened.
            let expected: ReceiptStatus = switch outcome {
            case .validationFailed: .validationFailed
            case .declined(.cancelledByPerson): .cancelled
            case .declined(.failed(.metadataStore)), .declined(.failed(.credentialStore)), .declined(.failed(.commitUncertain)): .storeFailed
            case .declined, .imported: .declined
            }
            #expect(outcome.receiptStatus == expected)
            #expect(outcome.message.hasSuffix("."))
            #expect(outcome.message.split(separator: ".").count >= 2, "whole sentences, with a next step: \(outcome.message)")
            #expect(!outcome.message.contains(SharedDovecot.password))
        }
        #expect(ImportOutcome.declined(.failed(.credentialStore(.keychain(status: -25308)))).message.contains("Unlock the device"))
    }
}
