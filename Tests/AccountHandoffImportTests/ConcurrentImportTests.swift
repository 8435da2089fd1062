import AccountHandoff
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffTestSupport
import Foundation
import Testing

/// Two imports of one account at the same time: exactly one wins, the other gets a typed
/// conflict, and the store holds one complete account.
@Suite struct ConcurrentImportTests {
    @Test func secondImportOfTheSameLinkIDInOneProcessIsRefusedBeforeItsPasswordTravels() async throws {
        let harness = try await blocking { try ImportHarness() }
        defer { harness.remove() }
        let offer = try harness.offer()
        let first = try await blocking { try harness.coordinator.prepare(offer: offer) }
        await #expect(throws: ImportError.importInProgress(offer.linkID)) { try await blocking { try harness.coordinator.prepare(offer: offer) } }
        #expect(await first.complete(metadata: offer, credential: try ImportFixtures.rightPassword()).receiptStatus == .imported)
        // The claim ended with the import.
        _ = try await blocking { try harness.coordinator.prepare(offer: offer) }.cancel()
    }

    @Test(arguments: [false, true])
    func twoStoresOnOneDirectoryRaceAndExactlyOneWins(replacing: Bool) async throws {
        let harness = try await blocking { try ImportHarness() }
        defer { harness.remove() }
        let offer = try harness.offer()
        if replacing {
            try await harness.seed(try #require(try ImportScenario.replace.oldAccount(host: offer.imapHost, port: offer.imapPort, user: "ada-old")))
        }
        // A second store on the same directory: its own SQLite connection and lock-file
        // descriptor, as in a second process.
        let otherStore = try await blocking { try ReferenceAccountStore.open(at: harness.directory) }
        let coordinators = [harness.coordinator, ImportHarness.coordinator(otherStore, server: harness.server)]
        let prepared = try await blocking { try coordinators.map { try $0.prepare(offer: offer) } }
        for import_ in prepared where replacing { try import_.choose(.replace(ImportScenario.oldAccountID)) }
        let password = try ImportFixtures.rightPassword()
        async let first = prepared[0].complete(metadata: offer, credential: password)
        async let second = prepared[1].complete(metadata: offer, credential: password)
        let outcomes = await [first, second]

        #expect(outcomes.filter { $0.receiptStatus == .imported }.count == 1, "\(outcomes)")
        #expect(outcomes.filter { $0 == .declined(.failed(.accountChangedMeanwhile)) }.count == 1, "\(outcomes)")
        let snapshot = try await harness.snapshot()
        #expect(snapshot.accounts.map(\.metadata) == [offer])
        #expect(snapshot.accounts.map(\.credential) == [.new])
        #expect(snapshot.isClean, "the loser discarded its staged credential: \(snapshot)")
        if replacing { #expect(snapshot.accounts.map(\.id) == [ImportScenario.oldAccountID]) }
    }

    @Test func accountAddedAfterTheChoiceMakesTheCommitFail() async throws {
        let harness = try await blocking { try ImportHarness() }
        defer { harness.remove() }
        let offer = try harness.offer()
        let prepared = try await blocking { try harness.coordinator.prepare(offer: offer) }
        #expect(prepared.conflict == nil)
        // Meanwhile another device's import added an account with the same address and server.
        let sameAddress = try harness.offer(linkID: AccountLinkID(uuid: UUID()))
        try await harness.seed(sameAddress, id: .random())
        let before = try await harness.snapshot()
        let outcome = await prepared.complete(metadata: offer, credential: try ImportFixtures.rightPassword())
        #expect(outcome == .declined(.failed(.accountChangedMeanwhile)))
        #expect(try await harness.snapshot() == before)
    }

    @Test func recoveryLeavesARunningImportAlone() async throws {
        let harness = try await blocking { try ImportHarness() }
        defer { harness.remove() }
        let running = try await blocking { try harness.coordinator.prepare(offer: try harness.offer()) }
        // Another process, recovering while the import holds its lease, must not delete the
        // staged credential the import is about to commit.
        let otherStore = try await blocking { try ReferenceAccountStore.open(at: harness.directory) }
        let inFlight = try await blocking { try otherStore.stage(SecretBytes(utf8: "staged by the running import")) }
        let skipped = try await blocking { try ImportHarness.coordinator(otherStore, server: harness.server).recover() }
        #expect(skipped.skippedBecauseImportIsRunning)
        #expect(try await blocking { try otherStore.stagedCredentials() } == [inFlight])
        running.cancel()
        #expect(try await blocking { try ImportHarness.coordinator(otherStore, server: harness.server).recover() }.discardedStagedCredentials == [inFlight])
    }
}
