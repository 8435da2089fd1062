import Foundation
import Testing
@_spi(Testing) @testable import AccountHandoff
import AccountHandoffTestSupport

/// Expiry is checked on every event against the injected clock (Spec 6).
@Suite struct ExpiryTests {
    static let lifetime: Double = 180

    static let senderSteps: [SessionPair.Step] = [
        .qrShown, .helloAccepted, .senderConfirmed, .acceptReceived, .credentialSent,
    ]

    @Test(arguments: senderSteps)
    func senderExpiresAtEachStep(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: step)
        // One second before the expiry nothing happens; at the expiry the session ends.
        #expect(try pair.sender.handle(.tick, now: Fixtures.time(Self.lifetime - 1)).isEmpty)
        let actions = try pair.sender.handle(.tick, now: Fixtures.time(Self.lifetime))
        #expect(kinds(actions) == ["finished(expired)"])
        #expect(pair.sender.outcome == .expired)
        #expect(allZero(pair.sender.guardedSecrets))
    }

    @Test func senderExpiresOnAFrameArrivingLate() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        let actions = try pair.sender.handle(.frameReceived(pair.receiverFrames[0]), now: Fixtures.time(Self.lifetime))
        #expect(actions.first?.outcome == .expired)
    }

    @Test func lateCredentialIsWipedWhenTheSessionExpires() throws {
        let pair = try SessionPair()
        try pair.run(until: .acceptReceived)
        let credential = SecretBytes(utf8: Fixtures.password)
        let actions = try pair.sender.handle(.credentialProvided(credential), now: Fixtures.time(Self.lifetime + 5))
        #expect(actions.first?.outcome == .expired)
        #expect(credential.isAllZero)
    }

    static let receiverSteps: [SessionPair.Step] = [.scanned, .offerReceived, .receiverConfirmed, .credentialReceived]

    @Test(arguments: receiverSteps)
    func receiverExpiresAtEachStepAfterTheSkewTolerance(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: step)
        let skew = Double(ReceiverConfiguration.standard.clockSkewTolerance)
        #expect(try pair.receiver.handle(.tick, now: Fixtures.time(Self.lifetime + skew)).isEmpty)
        let actions = try pair.receiver.handle(.tick, now: Fixtures.time(Self.lifetime + skew + 1))
        #expect(kinds(actions) == ["finished(expired)"])
        #expect(allZero(pair.receiver.guardedSecrets))
    }

    @Test func scanRefusesAnExpiredCode() throws {
        let pair = try SessionPair()
        #expect(throws: HandoffError.expired) {
            try HandoffReceiver.scan(payload: pair.sender.payload, random: InsecureDeterministicRandom(seed: 1),
                                     now: Fixtures.time(Self.lifetime + 31))
        }
        // Within the skew tolerance the scan still works; the sender stays the authority.
        let (receiver, _) = try HandoffReceiver.scan(payload: pair.sender.payload, random: InsecureDeterministicRandom(seed: 1),
                                                     now: Fixtures.time(Self.lifetime + 30))
        #expect(receiver.state == .awaitingOffer)
    }

    @Test func scanRefusesAnExpiryTooFarAhead() throws {
        // A sender clock far ahead (or a forged QR) claims more than the maximum lifetime.
        let pair = try SessionPair(lifetime: 600)
        #expect(throws: HandoffError.expiryTooFar) {
            try HandoffReceiver.scan(payload: pair.sender.payload, random: InsecureDeterministicRandom(seed: 1),
                                     now: Fixtures.time(-31))
        }
        let (receiver, _) = try HandoffReceiver.scan(payload: pair.sender.payload, random: InsecureDeterministicRandom(seed: 1),
                                                     now: Fixtures.time(-30))
        #expect(receiver.state == .awaitingOffer)
    }

    @Test func helloAfterSenderExpiryCannotRevive() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        _ = try pair.sender.handle(.tick, now: Fixtures.time(Self.lifetime))
        #expect(try pair.sender.handle(.frameReceived(pair.receiverFrames[0]), now: Fixtures.time(1)).first?.ignoredError == .sessionFinished)
        #expect(throws: HandoffError.sessionFinished) { try pair.sender.handle(.codeConfirmed, now: Fixtures.time(1)) }
    }

    @Test(arguments: [UInt32(29), 601])
    func lifetimeOutsideTheAllowedRangeIsRefused(lifetime: UInt32) {
        #expect(throws: HandoffError.invalidConfiguration) { try SenderConfiguration(lifetime: lifetime) }
    }

    @Test func skewToleranceAboveTheMaximumIsRefused() {
        #expect(throws: HandoffError.invalidConfiguration) { try ReceiverConfiguration(clockSkewTolerance: 121) }
    }

    @Test func expiryIsStartPlusLifetime() throws {
        let pair = try SessionPair(lifetime: 45)
        #expect(pair.sender.payload.expiry == 1_800_000_045)
        #expect(pair.sender.payload.expiryDate == Fixtures.time(45))
    }
}
