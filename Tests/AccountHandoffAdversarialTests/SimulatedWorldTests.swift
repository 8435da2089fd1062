import AccountHandoff
import AccountHandoffSimulation
import Testing

/// The simulated world itself behaves as the protocol says on the honest paths, so that the
/// adversarial tests built on it mean something.
@Suite struct SimulatedWorldTests {
    /// The honest schedule completes, stores the account with its link ID and password, and
    /// leaves both sessions wiped.
    @Test func honestScheduleCompletesAndImports() throws {
        let world = try SimulatedWorld()
        for step in SessionScript.honestSteps { try world.apply(step) }
        try world.finish()
        #expect(world.outcome(of: .sender) == "completed.imported")
        #expect(world.outcome(of: .receiver) == "completed.imported")
        #expect(world.receiverImportCommitted)
        #expect(world.receiverStore.password(for: Scenario.standard.account.linkID, equals: Scenario.standard.passwordBytes))
        // The sender's private key, its guarded copy of the commitment and its nonce, and the
        // four session keys (the same bytes on both sides); the receiver's private key is wiped
        // before its scan returns, and the delivered credential is the app's, not the session's.
        #expect(world.leaks.keyMaterialCount == 7)
    }

    /// Standard worlds start from copies of one started sender and one scanned receiver (so fuzz
    /// inputs skip the key work); the copies send exactly what a fresh start sends, and two
    /// worlds never share a secret.
    @Test func standardWorldsStartFromCopiesThatSendWhatAFreshStartSends() throws {
        let recording = SessionRecording.standard  // a fresh start, no copies
        let first = try SimulatedWorld()
        let second = try SimulatedWorld()
        #expect(first.inFlight[.toSender]?.map(\.bytes) == [recording.frames[0].bytes])
        try first.apply(.deliver(.toSender, 0))
        #expect(first.inFlight[.toReceiver]?.map(\.bytes) == [recording.frames[1].bytes])
        #expect(first.sender.shortCode == recording.shortCode)
        try first.apply(.person(.sender, .cancel))
        try first.finish()
        #expect(first.outcome(of: .sender) == "cancelled.local")
        // The first world's wiped secrets were its own: the second still completes.
        for step in SessionScript.honestSteps { try second.apply(step) }
        try second.finish()
        #expect(second.outcome(of: .receiver) == "completed.imported")
    }

    /// A store not written to since a snapshot holds it without a comparison; a write that
    /// changes an account does not, and one that writes the same account again still does.
    @Test func aStoreHoldsItsSnapshotUntilAWriteChangesIt() throws {
        let store = SimulatedAccountStore()
        let password = try SecretBytes(copying: Array("pw".utf8))
        try store.store(Scenario.standard.account, password: password)
        let snapshot = store.snapshot()
        let writes = store.writeCount
        #expect(store.holds(snapshot, takenAfter: writes))
        try store.store(Scenario.standard.account, password: password)
        #expect(store.holds(snapshot, takenAfter: writes))
        try store.store(SimulatedWorld.bystanderAccount, password: password)
        #expect(!store.holds(snapshot, takenAfter: writes))
    }

    /// A world where nothing happens ends expired on both sides with nothing stored.
    @Test func idleWorldExpires() throws {
        let world = try SimulatedWorld()
        try world.finish()
        #expect(world.outcome(of: .sender) == "expired")
        #expect(world.outcome(of: .receiver) == "expired")
        #expect(!world.receiverImportCommitted)
    }

    /// The receiver shows no code until the reveal arrives, then the sender's.
    @Test func theReceiversCodeAppearsOnlyWithTheReveal() throws {
        let world = try SimulatedWorld()
        #expect(world.receiver.shortCode == nil)
        try world.apply(.deliver(.toSender, 0))
        let code = try #require(world.sender.shortCode)
        #expect(world.receiver.shortCode == nil)
        try world.apply(.person(.sender, .confirm))  // a careful person waits for the other screen
        #expect(world.sender.phase == .awaitingCodeConfirmation)
        try world.apply(.deliver(.toReceiver, 0))
        #expect(world.receiver.shortCode == code)
    }
}
