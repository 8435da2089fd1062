import AccountHandoff
import AccountHandoffSimulation
import Foundation
import Testing

/// Three schedules that once told one person something false (Spec 8.4; outcomes that are true
/// on both devices, Spec 6.4.1), reproduced against the real state machines in the simulated
/// world, which checks every property (outcome truth included) on the way. Each now ends in a
/// pair that is true on both devices.
@Suite struct SessionTruthTests {
    /// The honest schedule up to the credential leaving the sender (hello, reveal, both people
    /// confirm, offer, accept, the password): the sender waits for the receipt.
    static let untilTheCredentialLeft = Array(SessionScript.honestSteps.prefix(7))

    /// A late second hello while the sender waits for the receipt (Spec 8.4). The sender must
    /// not end `contested` (the password already left and the first receiver will import it):
    /// it answers the second device with a contested abort through `reply`, warns its person
    /// (`anotherDeviceJoined`) and goes on; the first receiver imports, and the receipt
    /// completes the sender. Tried with the second hello arriving before the credential
    /// reaches the receiver, while the receiver's app imports, and after the receipt was sent.
    @Test(arguments: [7, 8, 9])
    func aLateSecondHelloIsAnsweredWithoutEndingTheSession(honestStepsBeforeTheHello: Int) throws {
        let world = try SimulatedWorld()
        for step in SessionScript.honestSteps.prefix(honestStepsBeforeTheHello) { try world.apply(step) }
        #expect(world.sender.phase == .awaitingReceipt)
        try world.apply(.attackerScans)
        let secondHello = try #require(world.inFlight[.toSender]?.lastIndex { $0.origin == .attacker })
        try world.apply(.deliverCopy(.toSender, secondHello))
        #expect(world.lastFrameActions == ["reply", "anotherDeviceJoined"])
        #expect(world.sender.phase == .awaitingReceipt)
        #expect(world.senderWarnedOfSecondDevice)
        let reply = try #require(world.inFlight[.toReceiver]?.lastIndex { $0.origin == .sender })
        try world.apply(.attackerObserves(reply))
        #expect(world.receiverFinalOutcome(.attacker) == .ended(.contested))
        try world.apply(.deliver(.toSender, secondHello))  // the same hello again: answered once
        #expect(world.lastIgnoredError == .replayed)
        for step in SessionScript.honestSteps.dropFirst(honestStepsBeforeTheHello) {
            if case .deliver(.toReceiver, _) = step {
                try world.apply(.deliver(.toReceiver, 0))  // the credential, ahead of the reply
            } else if case .deliver(.toSender, _) = step {
                try world.apply(.deliver(.toSender, world.inFlight[.toSender]!.count - 1))  // the receipt
            } else {
                try world.apply(step)
            }
        }
        try world.finish()
        #expect(world.senderFinalOutcome == .completed(.imported))
        #expect(world.receiverFinalOutcome() == .completed(.imported))
        #expect(world.receiverImportCommitted)
        #expect(world.outcome(of: .attacker) == "contested")
    }

    /// Ctrl-C (cancel) after the password was sent (Spec 6.4.1). The sender cannot take it back:
    /// it sends no abort and says `deliveredUnconfirmed.cancelled.local`, never "you cancelled,
    /// nothing was imported"; the receiver, which gets the credential anyway, imports it.
    @Test func aCancelAfterThePasswordLeftSaysItWasDelivered() throws {
        let world = try SimulatedWorld()
        for step in Self.untilTheCredentialLeft { try world.apply(step) }
        let framesBefore = world.producedFrames(.sender).count
        try world.apply(.person(.sender, .cancel))
        #expect(world.senderFinalOutcome == .deliveredUnconfirmed(.cancelled(by: .local)))
        #expect(world.senderFinalOutcome?.credentialLeft == true)
        #expect(world.producedFrames(.sender).count == framesBefore)  // nothing left to stop: no abort
        try world.apply(.deliver(.toReceiver, 0))
        try world.apply(.importFinished(.imported))
        try world.apply(.deliver(.toSender, 0))
        #expect(world.lastIgnoredError == .sessionFinished)  // the late receipt changes nothing
        try world.finish()
        #expect(world.receiverFinalOutcome() == .completed(.imported))
        #expect(world.receiverImportCommitted)
    }

    /// Expiry while the sender waits for the receipt (Spec 6.1). The sender keeps waiting until
    /// expiry + 120 s (its next deadline says so, and a tick at the expiry changes nothing), the
    /// importing receiver never expires, and a receipt 1 s after the expiry completes the
    /// sender; at the end of the receipt wait the sender says `deliveredUnconfirmed.expired`,
    /// never "expired, start a new transfer" as if nothing had left.
    @Test(arguments: [(1.0, "completed.imported"), (119.0, "completed.imported"), (120.0, "deliveredUnconfirmed.expired")])
    func aReceiptAfterTheExpiry(secondsAfterTheExpiry: Double, senderOutcome: String) throws {
        let world = try SimulatedWorld()
        for step in SessionScript.honestSteps.prefix(8) { try world.apply(step) }  // the receiver's app is importing
        #expect(world.sender.nextDeadline == world.receiptDeadline)
        #expect(world.receiver.phase == .awaitingImportResult && world.receiver.nextDeadline == nil)
        try world.apply(.advanceClock(seconds: UInt32(world.senderExpiry.timeIntervalSince(world.now))))
        try world.apply(.tick(.sender))
        try world.apply(.tick(.receiver))
        #expect(world.sender.phase == .awaitingReceipt && world.receiver.phase == .awaitingImportResult)
        try world.apply(.advanceClock(seconds: UInt32(secondsAfterTheExpiry)))
        try world.apply(.tick(.receiver))
        try world.apply(.importFinished(.imported))  // past the receiver's own expiry: the import still decides
        #expect(world.receiverFinalOutcome() == .completed(.imported))
        try world.apply(.deliver(.toSender, 0))
        #expect(world.outcome(of: .sender) == senderOutcome)
        try world.finish()
        #expect(world.receiverImportCommitted)
    }
}
