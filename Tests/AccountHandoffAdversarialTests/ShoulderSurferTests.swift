import AccountHandoff
import AccountHandoffSimulation
import AccountHandoffTestSupport
import Foundation
import Testing

/// A man in the middle who photographed the QR (so it knows the commitment and can build a
/// valid hello with its own key) and races the real receiver. The two-session attacker that
/// also plays sender towards the receiver is ``TwoSessionMITMTests``.
@Suite struct ShoulderSurferTests {
    /// The shoulder-surfer's hello reaches the sender first and the honest hello is blocked:
    /// the sender expects the code the attacker's screen shows, the honest receiving screen
    /// shows none (the reveal it could open never comes), and a "yes" is not an answer (Spec
    /// 4.4), so the sending person has nothing to type; it rejects, and the attacker decrypts
    /// nothing but the reveal and the abort.
    @Test func racingAttackerGetsNothingWhenPeopleCompareScreens() throws {
        let world = try SimulatedWorld()
        try world.apply(.attackerScans)
        try world.apply(.deliver(.toSender, 1))  // the attacker's hello overtakes the honest one...
        try world.apply(.drop(.toSender, 0))     // ...which the attacker then blocks
        try world.apply(.attackerObserves(0))    // the reveal, sealed for the attacker
        let attacker = try #require(world.attacker)
        let senderCode = try #require(world.sender.shortCode)
        #expect(senderCode == attacker.shortCode)
        #expect(world.receiver.shortCode == nil)

        try world.apply(.person(.sender, .confirm))  // the receiving screen shows no code: a careful person waits
        #expect(world.sender.phase == .awaitingCodeConfirmation)
        try world.apply(.deliver(.toReceiver, 0))     // the attacker's reveal does not open at the honest receiver
        #expect(world.lastIgnoredError == .authenticationFailed)
        try world.apply(.person(.sender, .reject))
        try world.apply(.attackerObserves(0))
        try world.apply(.person(.receiver, .cancel))
        try world.finish()

        #expect(world.outcome(of: .sender) == "rejected.local")
        #expect(world.outcome(of: .receiver) == "cancelled.local")
        #expect(world.outcome(of: .attacker) == "rejected.peer")
        #expect(!world.senderPersonConfirmed && !world.attackerLearnedAccount && !world.attackerLearnedCredential)
        #expect(attacker.offeredAccount == nil)
        // The sender sent exactly the reveal and the abort, and neither carries account data.
        let sent = world.producedFrames(.sender)
        #expect(sent.map { try? Frame(bytes: $0).type } == [.reveal, .abort])
        for frame in sent {
            for needle in [Scenario.standard.account.emailAddress, Scenario.standard.account.imapHost, Scenario.markerPassword] {
                #expect(!frame.containsSubsequence(Array(needle.utf8)))
            }
        }
        #expect(!world.receiverImportCommitted)
    }

    /// Whichever valid hello arrives second, before the credential left, the sender ends the
    /// session as contested and tells both devices so (the first on the session's channel, the
    /// second with a `reply` on its own keys); nobody gets the account.
    @Test(arguments: [true, false])
    func aSecondValidHelloEndsTheSessionContested(attackerFirst: Bool) throws {
        let world = try SimulatedWorld()
        try world.apply(.attackerScans)
        try world.apply(.deliver(.toSender, attackerFirst ? 1 : 0))
        try world.apply(.deliver(.toSender, 0))
        #expect(world.outcome(of: .sender) == "contested")
        #expect(world.producedFrames(.sender).count == 3)  // the reveal, the abort to the first, the reply to the second
        for index in 0..<3 { try world.apply(.attackerObserves(index)) }
        for _ in 0..<3 { try world.apply(.deliver(.toReceiver, 0)) }
        try world.finish()
        #expect(world.outcome(of: .attacker) == "contested")
        #expect(world.outcome(of: .receiver) == "contested")
        #expect(!world.attackerLearnedAccount && !world.receiverDelivered)
    }

    /// No device can know a code before its hello is fixed: after the scans neither receiver
    /// shows one, the sender shows one only once it accepted a hello, and a receiver gets it
    /// only from the reveal of its own session; a receiver whose hello was not accepted never
    /// shows a code at all.
    @Test func noCodeExistsBeforeTheReveal() throws {
        let world = try SimulatedWorld()
        try world.apply(.attackerScans)
        #expect(world.sender.shortCode == nil && world.receiver.shortCode == nil && world.attacker?.shortCode == nil)
        try world.apply(.deliver(.toSender, 1))
        let code = try #require(world.sender.shortCode)
        try world.apply(.attackerObserves(0))
        #expect(world.attacker?.shortCode == code)
        try world.apply(.deliver(.toReceiver, 0))
        #expect(world.receiver.shortCode == nil)
        try world.finish()
        #expect(world.receiver.shortCode == nil)
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in this array.
    func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
