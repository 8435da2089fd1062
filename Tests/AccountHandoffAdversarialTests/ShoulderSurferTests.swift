import AccountHandoff
import AccountHandoffSimulation
import AccountHandoffTestSupport
import Foundation
import Testing

/// A man in the middle who photographed the QR (so it knows the challenge and can build a
/// valid hello with its own key) and races the real receiver.
@Suite struct ShoulderSurferTests {
    /// The shoulder-surfer's hello reaches the sender first and the honest hello is blocked:
    /// the two devices show different codes, the careful people reject, and the attacker
    /// decrypts nothing but the abort.
    @Test func racingAttackerShowsADifferentCodeAndGetsNothingWhenPeopleReject() throws {
        let world = try SimulatedWorld()
        try world.apply(.attackerScans)
        try world.apply(.deliver(.toSender, 1))  // the attacker's hello overtakes the honest one...
        try world.apply(.drop(.toSender, 0))     // ...which the attacker then blocks
        let attacker = try #require(world.attacker)
        let senderCode = try #require(world.sender.shortCode)
        #expect(senderCode == attacker.shortCode)
        #expect(senderCode != world.receiver.shortCode)

        try world.apply(.person(.sender, .confirm))  // a careful person sees two codes and rejects
        try world.apply(.attackerObserves(0))
        try world.apply(.person(.receiver, .reject))
        try world.finish()

        #expect(world.outcome(of: .sender) == .rejected(by: .local))
        #expect(world.outcome(of: .receiver) == .rejected(by: .local))
        #expect(world.outcome(of: .attacker) == .rejected(by: .peer))
        #expect(!world.senderPersonConfirmed && !world.attackerLearnedAccount && !world.attackerLearnedCredential)
        #expect(attacker.offeredAccount == nil)
        // The sender sent exactly one frame, the abort, and it carries no account data.
        let sent = world.producedFrames(.sender)
        #expect(sent.count == 1)
        #expect(try Frame(bytes: sent[0]).type == .abort)
        for needle in [Scenario.standard.account.emailAddress, Scenario.standard.account.imapHost, Scenario.markerPassword] {
            #expect(!sent[0].containsSubsequence(Array(needle.utf8)))
        }
        #expect(!world.receiverImportCommitted)
    }

    /// Whichever valid hello arrives second, the sender ends the session as contested and
    /// tells the first peer so; nobody gets the account.
    @Test(arguments: [true, false])
    func aSecondValidHelloEndsTheSessionContested(attackerFirst: Bool) throws {
        let world = try SimulatedWorld()
        try world.apply(.attackerScans)
        try world.apply(.deliver(.toSender, attackerFirst ? 1 : 0))
        try world.apply(.deliver(.toSender, 0))
        #expect(world.outcome(of: .sender) == .contested)
        try world.apply(.attackerObserves(0))  // the contested abort, seen by both would-be receivers
        try world.apply(.deliver(.toReceiver, 0))
        try world.finish()
        #expect(world.outcome(of: attackerFirst ? .attacker : .receiver) == .contested)
        #expect(world.outcome(of: attackerFirst ? .receiver : .attacker) == .expired)
        #expect(!world.attackerLearnedAccount && !world.receiverDelivered)
    }

    /// Grinding helps the attacker choose its own code, not the honest receiver's: the
    /// attacker finds a key whose code ends in chosen digits within a few hundred tries, yet
    /// the honest receiver's code for the same QR is fixed by the receiver's secret key alone
    /// (a different receiver key gives an unrelated code) and does not equal the ground code.
    @Test func grindingTheAttackersKeyDoesNotPredictTheHonestCode() throws {
        let recording = SessionRecording.standard
        let payload = try SessionPayload(text: recording.qrText)
        let now = Scenario.standard.start
        func code(seed: UInt64) throws -> ShortCode {
            try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: seed), now: now).receiver.shortCode
        }

        // 1. The attacker grinds its key until its own code ends in "00".
        var groundSeed: UInt64?
        var tries = 0
        for seed in UInt64(1_000)..<UInt64(3_000) where groundSeed == nil {
            tries += 1
            if try code(seed: seed).value % 100 == 0 { groundSeed = seed }
        }
        let attackerSeed = try #require(groundSeed)
        let groundCode = try code(seed: attackerSeed)
        #expect(groundCode.value % 100 == 0)
        #expect(tries < 2_000)

        // 2. Racing with the ground key: the sender shows the ground code, the honest receiver its own.
        let world = try SimulatedWorld(scenario: Scenario(attackerSeed: attackerSeed))
        try world.apply(.attackerScans)
        try world.apply(.deliver(.toSender, 1))
        #expect(world.sender.shortCode == groundCode)
        #expect(world.receiver.shortCode == recording.shortCode)
        #expect(world.receiver.shortCode != groundCode)
        try world.apply(.person(.sender, .confirm))
        try world.finish()
        #expect(world.outcome(of: .sender) == .rejected(by: .local))

        // 3. The honest code depends on the honest receiver's secret key: 300 receiver keys for
        //    the same QR give 300 (or nearly) different codes, none equal to the ground code, and
        //    only about 1 % of them end in "00" like the attacker's.
        let honestCodes = try (UInt64(50_000)..<UInt64(50_300)).map { try code(seed: $0).value }
        #expect(Set(honestCodes).count >= 295)
        #expect(!honestCodes.contains(groundCode.value))
        #expect(honestCodes.filter { $0 % 100 == 0 }.count <= 10)
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in this array.
    func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
