import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Spec 6.0 step 3 and 2.5 S2-S3: exact and fractional boundaries, the sender's receipt wait and
/// the receiver's import that never expires.
@Suite struct ExpiryTests {
    static let expiry = Fixtures.startSeconds + Fixtures.lifetime
    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    @Test func senderExpiryIsTheFlooredStartPlusTheLifetime() throws {
        let pair = try SessionPair(lifetime: 30, start: Fixtures.time(0.999))
        #expect(pair.sender.payload.expiry == UInt32(Fixtures.startSeconds) + 30)
        #expect(pair.sender.expiryDate == Fixtures.time(30))
        #expect(pair.sender.nextDeadline == Fixtures.time(30))
    }

    /// Every live sender phase before the credential left: alive a millisecond before the
    /// expiry, `expired` exactly at it.
    @Test(arguments: [SessionPair.Step.qrShown, .helloAccepted, .senderConfirmed, .acceptReceived])
    func senderExpiresExactlyAtTheExpiry(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: max(step, .scanned))
        try pair.run(until: step)
        let before = try pair.send(.tick, at: Self.at(Self.expiry - 0.001))
        #expect(before.kinds == [])
        #expect(before.nextDeadline == Self.at(Self.expiry))
        #expect(pair.sender.phase == SessionPair.senderPhase(after: step))
        let at = try pair.send(.tick, at: Self.at(Self.expiry))
        // With a receiver's keys, the sender tells it with abort(expired) (Spec 6.0 step 3).
        #expect(at.kinds == (step == .qrShown ? ["finished(expired)"] : ["send(abort)", "finished(expired)"]))
        #expect(at.nextDeadline == nil)
        #expect(pair.sender.memory.hasEnded)
    }

    /// Whatever the event, at the expiry the session ends (no frame is processed; the only frame
    /// sent is the abort that tells the receiver, Spec 6.0 step 3).
    @Test func anyEventAtTheExpiryEndsTheSessionInsteadOfBeingProcessed() throws {
        let pair = try SessionPair()
        try pair.run(until: .offerReceived)
        try pair.run(until: .receiverConfirmed)
        #expect(try pair.send(.frameReceived(pair.receiverFrames[1]), at: Self.at(Self.expiry)).kinds == ["send(abort)", "finished(expired)"])

        let confirming = try SessionPair()
        try confirming.run(until: .helloAccepted)
        #expect(try confirming.send(confirming.typedCode, at: Self.at(Self.expiry + 0.5)).kinds == ["send(abort)", "finished(expired)"])
        #expect(confirming.senderFrames.map(frameType) == ["reveal", "abort"])  // no offer

        let crediting = try SessionPair()
        try crediting.run(until: .acceptReceived)
        let password = Fixtures.secret(Fixtures.password)
        #expect(try crediting.send(.credentialProvided(password), at: Self.at(Self.expiry)).kinds == ["send(abort)", "finished(expired)"])
        #expect(password.isWiped)
        #expect(crediting.senderFrames.map(frameType) == ["reveal", "offer", "abort"])  // no credential
    }

    /// Once the credential left, the sender waits for the receipt until `expiry + 120`, and an
    /// ending there says the credential was delivered.
    @Test func senderWaitsForTheReceiptUntilExpiryPlus120() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialSent)
        let receiptWait = Self.at(Self.expiry + 120)
        #expect(pair.sender.nextDeadline == receiptWait)
        #expect(try pair.send(.tick, at: Self.at(Self.expiry)).kinds == [])
        #expect(try pair.send(.tick, at: Self.at(Self.expiry + 119.999)).nextDeadline == receiptWait)
        #expect(pair.sender.phase == .awaitingReceipt)
        #expect(try pair.send(.tick, at: receiptWait).kinds == ["finished(deliveredUnconfirmed.expired)"])
        #expect(pair.sender.outcome?.credentialLeft == true)
        #expect(pair.sender.memory.hasEnded)
    }

    /// A receipt that arrives after the expiry but within the receipt wait completes both sides.
    @Test func aReceiptWithinTheReceiptWaitCompletes() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        try pair.receive(.importFinished(.imported), at: Self.at(Self.expiry + 90))
        #expect(pair.receiver.outcome == .completed(.imported))
        #expect(try pair.send(.frameReceived(pair.receiverFrames[2]), at: Self.at(Self.expiry + 119.5)).kinds
                == ["finished(completed.imported)"])
    }

    @Test func aReceiptAtTheEndOfTheReceiptWaitIsTooLate() throws {
        let pair = try SessionPair()
        try pair.run(until: .importFinished)
        #expect(try pair.send(.frameReceived(pair.receiverFrames[2]), at: Self.at(Self.expiry + 120)).kinds
                == ["finished(deliveredUnconfirmed.expired)"])
    }

    @Test func receiverExpiresAtTheExpiryPlusItsSkewTolerance() throws {
        for step in [SessionPair.Step.scanned, .revealReceived, .offerReceived, .receiverConfirmed] {
            let pair = try SessionPair()
            try pair.run(until: step)
            let effective = Self.at(Self.expiry + Fixtures.skew)
            #expect(pair.receiver.effectiveExpiry == effective)
            #expect(pair.receiver.nextDeadline == effective)
            #expect(try pair.receive(.tick, at: Self.at(Self.expiry + Fixtures.skew - 0.001)).kinds == [], "\(step)")
            #expect(try pair.receive(.tick, at: effective).kinds == ["send(abort)", "finished(expired)"], "\(step)")
            #expect(pair.receiver.memory.hasEnded)
        }
    }

    @Test(arguments: [UInt32(0), 1, 120])
    func everySkewToleranceMovesTheReceiverDeadline(skew: UInt32) throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned, configuration: ReceiverConfiguration(clockSkewTolerance: skew))
        let effective = Self.at(Self.expiry + Double(skew))
        #expect(pair.receiver.nextDeadline == effective)
        #expect(try pair.receive(.tick, at: effective.addingTimeInterval(-0.25)).kinds == [])
        #expect(try pair.receive(.tick, at: effective).kinds == ["send(abort)", "finished(expired)"])
    }

    /// The receiver's import never expires: the credential is the app's, only its result ends it.
    @Test func theReceiversImportNeverExpires() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        #expect(pair.lastReceiverStep?.nextDeadline == nil)
        #expect(pair.receiver.nextDeadline == nil)
        #expect(try pair.receive(.tick, at: Self.at(Self.expiry + 86_400)).kinds == [])
        #expect(pair.receiver.phase == .awaitingImportResult)
        let done = try pair.receive(.importFinished(.validationFailed), at: Self.at(Self.expiry + 86_401))
        #expect(done.kinds == ["send(receipt)", "finished(completed.validationFailed)"])
    }

    // MARK: Scan (Spec 2.5)

    @Test func scanRefusesAnExpiredQRFromExactlyTheExpiryPlusSkew() throws {
        let sender = try SessionPair().sender
        #expect(throws: HandoffError.expired) {
            try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: 1),
                                     now: Self.at(Self.expiry + Fixtures.skew))
        }
        let (receiver, step) = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: 1),
                                                        now: Self.at(Self.expiry + Fixtures.skew - 0.001))
        #expect(step.kinds == ["send(hello)"])
        #expect(try receiver.handle(.tick, now: Self.at(Self.expiry + Fixtures.skew)).kinds == ["send(abort)", "finished(expired)"])
    }

    @Test func scanRefusesAnExpiryFurtherAheadThanAnyHonestSender() throws {
        let payload = SessionPair.payload(expiry: UInt32(Fixtures.startSeconds) + 600 + 30)
        // expiry == now + 600 + skew is the largest accepted.
        #expect(throws: Never.self) {
            try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 1), now: Fixtures.start)
        }
        #expect(throws: HandoffError.expiryTooFar) {
            try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 1), now: Fixtures.time(-0.001))
        }
    }

    @Test func lifetimeAndSkewOutsideTheirRangesAreInvalidConfigurations() throws {
        #expect(throws: HandoffError.invalidConfiguration) { try SenderConfiguration(lifetime: 29) }
        #expect(throws: HandoffError.invalidConfiguration) { try SenderConfiguration(lifetime: 601) }
        #expect(try SenderConfiguration(lifetime: 30).lifetime == 30)
        #expect(try SenderConfiguration(lifetime: 600).lifetime == 600)
        #expect(SenderConfiguration.standard.lifetime == 180)
        #expect(throws: HandoffError.invalidConfiguration) { try ReceiverConfiguration(clockSkewTolerance: 121) }
        #expect(try ReceiverConfiguration(clockSkewTolerance: 120).clockSkewTolerance == 120)
        #expect(ReceiverConfiguration.standard.clockSkewTolerance == 30)
    }
}

extension SessionPair {
    /// A payload with a chosen expiry and a valid (non-small-order) sender key.
    static func payload(expiry: UInt32, publicKey: [UInt8]? = nil) -> SessionPayload {
        let key = publicKey ?? (try! VectorPrimitives.x25519PublicKey(privateKey: Array(repeating: 0x42, count: 32)))
        return try! VectorPrimitives.payload(expiry: expiry, commitment: Array(repeating: 0x33, count: 32),
                                             senderPublicKey: key, rendezvous: [1, 2, 3])
    }
}
