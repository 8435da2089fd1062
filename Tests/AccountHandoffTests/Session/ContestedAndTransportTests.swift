import Foundation
import Testing
@_spi(Testing) @testable import AccountHandoff
import AccountHandoffTestSupport

@Suite struct ContestedSessionTests {
    @Test(arguments: [SessionPair.Step.helloAccepted, .senderConfirmed, .acceptReceived])
    func secondValidHelloEndsTheSessionAsContested(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: step)
        // Someone else who saw the QR joins with its own key.
        let (intruder, intruderActions) = try HandoffReceiver.scan(payload: pair.sender.payload,
                                                                   random: InsecureDeterministicRandom(seed: 555), now: Fixtures.start)
        let intruderHello = try #require(intruderActions.first?.sentFrame)
        #expect(intruder.shortCode != pair.receiver.shortCode)
        let actions = try pair.sender.handle(.frameReceived(intruderHello), now: Fixtures.start)
        #expect(kinds(actions) == ["send(abort)", "finished(contested)"])
        #expect(pair.sender.outcome == .contested)
        // The first receiver learns it through an authenticated abort.
        let abort = try #require(actions.first?.sentFrame)
        #expect(try pair.receiver.handle(.frameReceived(abort), now: Fixtures.start).last?.outcome == .contested)
        #expect(pair.allSecretsWiped)
        #expect(pair.delivered == nil)
    }

    @Test func invalidSecondHelloDoesNotDisturbTheSession() throws {
        let pair = try SessionPair()
        try pair.run(until: .helloAccepted)
        var forged = try Frame(bytes: pair.receiverFrames[0]).body
        forged[40] ^= 0x80  // corrupt the tag
        let hello = Frame(type: .hello, transferID: pair.sender.payload.transferID, sequence: 0, body: forged).bytes
        #expect(try pair.sender.handle(.frameReceived(hello), now: Fixtures.start).first?.ignoredError == .authenticationFailed)
        #expect(pair.sender.state == .awaitingCodeConfirmation)
    }
}

@Suite struct TransportLossTests {
    static let steps: [SessionPair.Step] = [.qrShown, .helloAccepted, .senderConfirmed, .acceptReceived, .credentialSent]

    @Test(arguments: steps)
    func senderTransportLossIsTerminalFailure(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: step)
        let actions = try pair.sender.handle(.transportLost, now: Fixtures.start)
        #expect(actions.first?.outcome == .failed(.transportLost))
        #expect(allZero(pair.sender.guardedSecrets))
        // Another loss report after the end is harmless.
        #expect(try pair.sender.handle(.transportLost, now: Fixtures.start).isEmpty)
    }

    @Test(arguments: [SessionPair.Step.scanned, .offerReceived, .receiverConfirmed, .credentialReceived])
    func receiverTransportLossIsTerminalFailure(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: step)
        let actions = try pair.receiver.handle(.transportLost, now: Fixtures.start)
        #expect(actions.first?.outcome == .failed(.transportLost))
        #expect(allZero(pair.receiver.guardedSecrets))
        if let delivered = pair.delivered { #expect(delivered.credential.isAllZero) }
    }
}

@Suite struct LocalMisuseTests {
    @Test func confirmingBeforeAHelloIsAnInvalidEvent() throws {
        let pair = try SessionPair()
        #expect(throws: HandoffError.invalidEvent(.codeConfirmed, in: .awaitingHello)) {
            try pair.sender.handle(.codeConfirmed, now: Fixtures.start)
        }
        #expect(throws: HandoffError.invalidEvent(.codeRejected, in: .awaitingHello)) {
            try pair.sender.handle(.codeRejected, now: Fixtures.start)
        }
    }

    @Test func credentialBeforeBothConfirmedIsRefusedAndWiped() throws {
        let pair = try SessionPair()
        try pair.run(until: .senderConfirmed)
        let credential = SecretBytes(utf8: Fixtures.password)
        #expect(throws: HandoffError.invalidEvent(.credentialProvided, in: .awaitingAccept)) {
            try pair.sender.handle(.credentialProvided(credential), now: Fixtures.start)
        }
        #expect(credential.isAllZero)
        #expect(pair.sender.state == .awaitingAccept)
    }

    @Test func receiverCannotAcceptBeforeTheOffer() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        #expect(throws: HandoffError.invalidEvent(.codeConfirmed, in: .awaitingOffer)) {
            try pair.receiver.handle(.codeConfirmed, now: Fixtures.start)
        }
        #expect(throws: HandoffError.invalidEvent(.importFinished, in: .awaitingOffer)) {
            try pair.receiver.handle(.importFinished(.imported), now: Fixtures.start)
        }
    }

    @Test func receiverRejectsThroughTheReceiptOnceTheAccountArrived() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        #expect(throws: HandoffError.invalidEvent(.codeRejected, in: .awaitingImportResult)) {
            try pair.receiver.handle(.codeRejected, now: Fixtures.start)
        }
    }

    @Test func senderCannotRejectAfterTheCredentialLeft() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialSent)
        #expect(throws: HandoffError.invalidEvent(.codeRejected, in: .awaitingReceipt)) {
            try pair.sender.handle(.codeRejected, now: Fixtures.start)
        }
    }

    @Test func localEventsAfterTheEndThrowSessionFinished() throws {
        let pair = try SessionPair()
        try pair.run(until: .receiptReceived)
        #expect(throws: HandoffError.sessionFinished) { try pair.sender.handle(.cancel, now: Fixtures.start) }
        #expect(throws: HandoffError.sessionFinished) { try pair.receiver.handle(.cancel, now: Fixtures.start) }
        #expect(try pair.receiver.handle(.tick, now: Fixtures.start).isEmpty)
    }

    @Test func unexpectedFrameTypeIsIgnoredWithItsState() throws {
        let pair = try SessionPair()
        try pair.run(until: .helloAccepted)
        // The receiver's hello again but to the receiver itself: receivers never accept hellos.
        #expect(try pair.receiver.handle(.frameReceived(pair.receiverFrames[0]), now: Fixtures.start).first?.ignoredError
                == .unexpectedMessage(.hello, in: .awaitingOffer))
    }

    @Test func oversizedCredentialIsRefused() throws {
        let pair = try SessionPair()
        try pair.run(until: .acceptReceived)
        let tooLong = SecretBytes(copying: [UInt8](repeating: 0x61, count: 1023))
        #expect(throws: HandoffError.malformed(.credential)) {
            try pair.sender.handle(.credentialProvided(tooLong), now: Fixtures.start)
        }
        #expect(tooLong.isAllZero)
    }
}

@Suite struct RegistryTests {
    @Test func senderRegistryRefusesFramesOfEndedTransfers() throws {
        let registry = SenderRegistry()
        let pair = try SessionPair(senderRegistry: registry)
        try pair.run(until: .scanned)
        #expect(try registry.admit(frame: pair.receiverFrames[0], now: Fixtures.start) == pair.sender.payload.transferID)
        try pair.run(until: .receiptReceived)
        #expect(registry.outcome(of: pair.sender.payload.transferID) == .completed(.imported))
        #expect(throws: HandoffError.transferConsumed) { try registry.admit(frame: pair.receiverFrames[0], now: Fixtures.start) }
    }

    @Test func senderRegistryRefusesUnknownAndExpiredTransfers() throws {
        let registry = SenderRegistry()
        let pair = try SessionPair(senderRegistry: registry)
        try pair.run(until: .scanned)
        #expect(throws: HandoffError.expired) { try registry.admit(frame: pair.receiverFrames[0], now: Fixtures.time(180)) }
        let stranger = try SessionPair(seed: 77)
        try stranger.run(until: .scanned)
        #expect(throws: HandoffError.unknownTransfer) { try registry.admit(frame: stranger.receiverFrames[0], now: Fixtures.start) }
        #expect(throws: HandoffError.malformed(.frameHeader)) { try registry.admit(frame: [1, 2, 3], now: Fixtures.start) }
    }

    @Test func senderRegistryRefusesAReusedTransferID() throws {
        let registry = SenderRegistry()
        _ = try SessionPair(seed: 5, senderRegistry: registry)
        #expect(throws: HandoffError.transferIDInUse) { try SessionPair(seed: 5, senderRegistry: registry) }
    }

    @Test func receiverRegistryLetsAQRBeScannedOnce() throws {
        let registry = ReceiverRegistry()
        let pair = try SessionPair()
        _ = try HandoffReceiver.scan(payload: pair.sender.payload, random: InsecureDeterministicRandom(seed: 1), now: Fixtures.start, registry: registry)
        #expect(registry.hasScanned(pair.sender.payload.transferID))
        #expect(throws: HandoffError.alreadyScanned) {
            try HandoffReceiver.scan(payload: pair.sender.payload, random: InsecureDeterministicRandom(seed: 2), now: Fixtures.start, registry: registry)
        }
    }

    @Test func pruningForgetsLongExpiredTransfers() throws {
        let registry = ReceiverRegistry()
        let pair = try SessionPair()
        _ = try HandoffReceiver.scan(payload: pair.sender.payload, random: InsecureDeterministicRandom(seed: 1), now: Fixtures.start, registry: registry)
        registry.prune(now: Fixtures.time(180 + 3599))
        #expect(registry.hasScanned(pair.sender.payload.transferID))
        registry.prune(now: Fixtures.time(180 + 3600))
        #expect(!registry.hasScanned(pair.sender.payload.transferID))
    }
}

@Suite struct OutcomeErrorTests {
    @Test func outcomesMapToTheirErrors() {
        #expect(TransferOutcome.completed(.imported).error == nil)
        #expect(TransferOutcome.cancelled(by: .local).error == nil)
        #expect(TransferOutcome.rejected(by: .local).error == nil)
        #expect(TransferOutcome.cancelled(by: .peer).error == .cancelledByPeer)
        #expect(TransferOutcome.rejected(by: .peer).error == .rejectedByPeer)
        #expect(TransferOutcome.contested.error == .anotherDeviceJoined)
        #expect(TransferOutcome.expired.error == .expired)
        #expect(TransferOutcome.failed(.transportLost).error == .transportLost)
    }

    @Test func aFailedScanGivesItsRegistryClaimBack() throws {
        let registry = ReceiverRegistry()
        let pair = try SessionPair()
        let real = pair.sender.payload
        let forged = SessionPayload(intent: real.intent, transferID: real.transferID, expiry: real.expiry, challenge: real.challenge,
                                    senderPublicKey: X25519PublicKey(bytes: [UInt8](repeating: 0, count: 32))!, rendezvous: real.rendezvous)
        #expect(throws: HandoffError.lowOrderPublicKey) {
            try HandoffReceiver.scan(payload: forged, random: InsecureDeterministicRandom(seed: 1), now: Fixtures.start, registry: registry)
        }
        #expect(!registry.hasScanned(real.transferID))
    }
}
