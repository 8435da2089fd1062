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
        for step: WorldStep in [.deliver(.toSender, 0), .person(.sender, .confirm), .deliver(.toReceiver, 0),
                                .person(.receiver, .confirm), .deliver(.toSender, 0), .provideCredential,
                                .deliver(.toReceiver, 0), .importFinished(.imported), .deliver(.toSender, 0)] {
            try world.apply(step)
        }
        try world.finish()
        #expect(world.outcome(of: .sender) == .completed(.imported))
        #expect(world.outcome(of: .receiver) == .completed(.imported))
        #expect(world.receiverImportCommitted)
        #expect(world.receiverStore.password(for: Scenario.standard.account.linkID, equals: Scenario.standard.passwordBytes))
        // Two private keys, the challenge, three session keys (shared by both sides) and the delivered credential.
        #expect(world.leaks.keyMaterialCount == 7)
    }

    /// A world where nothing happens ends expired on both sides with nothing stored.
    @Test func idleWorldExpires() throws {
        let world = try SimulatedWorld()
        try world.finish()
        #expect(world.outcome(of: .sender) == .expired)
        #expect(world.outcome(of: .receiver) == .expired)
        #expect(!world.receiverImportCommitted)
    }
}
