import Foundation
import Testing
@_spi(Testing) @testable import AccountHandoff
import AccountHandoffTestSupport

/// One-shot behaviour: replays, duplicates, foreign frames and junk never consume a session.
@Suite struct ReplayAndInjectionTests {
    @Test func replayedHelloIsIgnored() throws {
        let pair = try SessionPair()
        try pair.run(until: .helloAccepted)
        let actions = try pair.sender.handle(.frameReceived(pair.receiverFrames[0]), now: Fixtures.start)
        #expect(actions.first?.ignoredError == .replayed)
        #expect(pair.sender.state == .awaitingCodeConfirmation)
    }

    @Test func replayedOfferIsIgnored() throws {
        let pair = try SessionPair()
        try pair.run(until: .offerReceived)
        #expect(try pair.receiver.handle(.frameReceived(pair.senderFrames[0]), now: Fixtures.start).first?.ignoredError == .replayed)
        #expect(pair.receiver.state == .reviewingOffer)
    }

    @Test func replayedAcceptIsIgnored() throws {
        let pair = try SessionPair()
        try pair.run(until: .acceptReceived)
        #expect(try pair.sender.handle(.frameReceived(pair.receiverFrames[1]), now: Fixtures.start).first?.ignoredError == .replayed)
        #expect(pair.sender.state == .awaitingCredential)
    }

    @Test func framesAfterTheEndAreIgnored() throws {
        let pair = try SessionPair()
        try pair.run(until: .receiptReceived)
        for frame in pair.receiverFrames {
            #expect(try pair.sender.handle(.frameReceived(frame), now: Fixtures.start).first?.ignoredError == .sessionFinished)
        }
        for frame in pair.senderFrames {
            #expect(try pair.receiver.handle(.frameReceived(frame), now: Fixtures.start).first?.ignoredError == .sessionFinished)
        }
    }

    @Test func skippedFrameIsOutOfOrder() throws {
        // Deliver the credential frame of one session before its offer: the sequence is ahead.
        let reference = try SessionPair()
        try reference.run(until: .credentialSent)
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        let actions = try pair.receiver.handle(.frameReceived(reference.senderFrames[1]), now: Fixtures.start)
        #expect(actions.first?.ignoredError == .outOfOrder)
        #expect(pair.receiver.state == .awaitingOffer)
    }

    @Test func frameOfAnotherSessionIsUnknownTransfer() throws {
        let other = try SessionPair(seed: 99)
        try other.run(until: .senderConfirmed)
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        #expect(try pair.receiver.handle(.frameReceived(other.senderFrames[0]), now: Fixtures.start).first?.ignoredError == .unknownTransfer)
        #expect(try pair.sender.handle(.frameReceived(other.receiverFrames[0]), now: Fixtures.start).first?.ignoredError == .unknownTransfer)
    }

    @Test func junkDoesNotKillAPendingSession() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        let junk: [[UInt8]] = [[], [0x01], Array(repeating: 0xff, count: 40), Array(repeating: 0, count: 5000)]
        let errors = try junk.map { try pair.sender.handle(.frameReceived($0), now: Fixtures.start).first?.ignoredError }
        #expect(errors == [.malformed(.frameHeader), .malformed(.frameHeader), .unsupportedVersion(0xff), .oversizedFrame(5000)])
        #expect(pair.sender.state == .awaitingHello)
        // The real receiver still gets through.
        try pair.run(until: .receiptReceived)
        #expect(pair.sender.outcome == .completed(.imported))
    }

    @Test func helloWithTheWrongChallengeFailsKeyConfirmation() throws {
        // A party that never saw the QR knows the public key but not the challenge.
        let pair = try SessionPair()
        let real = pair.sender.payload
        let guessed = SessionPayload(intent: real.intent, transferID: real.transferID, expiry: real.expiry,
                                     challenge: [UInt8](repeating: 0x42, count: 16),
                                     senderPublicKey: real.senderPublicKey, rendezvous: real.rendezvous)
        let (_, actions) = try HandoffReceiver.scan(payload: guessed, random: InsecureDeterministicRandom(seed: 3), now: Fixtures.start)
        let hello = try #require(actions.first?.sentFrame)
        #expect(try pair.sender.handle(.frameReceived(hello), now: Fixtures.start).first?.ignoredError == .authenticationFailed)
        #expect(pair.sender.state == .awaitingHello)
    }

    @Test func modifiedTranscriptFailsKeyConfirmation() throws {
        // A relay rewrites the rendezvous token the receiver saw: the transcripts differ.
        let pair = try SessionPair()
        let real = pair.sender.payload
        let altered = SessionPayload(intent: real.intent, transferID: real.transferID, expiry: real.expiry,
                                     challenge: real.challenge, senderPublicKey: real.senderPublicKey,
                                     rendezvous: try RendezvousToken(bytes: [9, 9]))
        let (_, actions) = try HandoffReceiver.scan(payload: altered, random: InsecureDeterministicRandom(seed: 3), now: Fixtures.start)
        let hello = try #require(actions.first?.sentFrame)
        #expect(try pair.sender.handle(.frameReceived(hello), now: Fixtures.start).first?.ignoredError == .authenticationFailed)
    }

    @Test func tamperedCiphertextIsIgnoredAndTheGenuineFrameStillWorks() throws {
        let pair = try SessionPair()
        try pair.run(until: .senderConfirmed)
        var tampered = pair.senderFrames[0]
        tampered[Frame.headerByteCount + 3] ^= 0x01
        #expect(try pair.receiver.handle(.frameReceived(tampered), now: Fixtures.start).first?.ignoredError == .authenticationFailed)
        #expect(pair.shownAccount == nil)
        try pair.run(until: .receiptReceived)
        #expect(pair.receiver.outcome == .completed(.imported))
    }

    @Test func tamperedHeaderBreaksTheAdditionalData() throws {
        let pair = try SessionPair()
        try pair.run(until: .senderConfirmed)
        var tampered = pair.senderFrames[0]
        tampered[1] = MessageType.credential.rawValue  // type change: wrong body length for credential
        #expect(try pair.receiver.handle(.frameReceived(tampered), now: Fixtures.start).first?.ignoredError == .malformed(.body))
    }

    @Test func credentialBoundToTheOfferedLinkID() throws {
        // The credential's AD includes the AccountLinkID the receiver saw in the offer; a
        // receiver whose recorded link ID differs cannot open it.
        let pair = try SessionPair()
        try pair.run(until: .credentialSent)
        pair.receiver.channel.linkID = AccountLinkID(uuid: UUID())
        #expect(try pair.receiver.handle(.frameReceived(pair.senderFrames[1]), now: Fixtures.start).first?.ignoredError == .authenticationFailed)
        #expect(pair.delivered == nil)
    }

    @Test func lowOrderSenderKeyInTheQRIsRefusedAtScan() throws {
        let pair = try SessionPair()
        let real = pair.sender.payload
        let forged = SessionPayload(intent: real.intent, transferID: real.transferID, expiry: real.expiry,
                                    challenge: real.challenge, senderPublicKey: X25519PublicKey(bytes: [UInt8](repeating: 0, count: 32))!,
                                    rendezvous: real.rendezvous)
        #expect(throws: HandoffError.lowOrderPublicKey) {
            try HandoffReceiver.scan(payload: forged, random: InsecureDeterministicRandom(seed: 3), now: Fixtures.start)
        }
    }

    @Test func lowOrderReceiverKeyIsIgnoredBySender() throws {
        let pair = try SessionPair()
        let body = [UInt8](repeating: 0, count: 32) + [UInt8](repeating: 7, count: 32)
        let hello = Frame(type: .hello, transferID: pair.sender.payload.transferID, sequence: 0, body: body).bytes
        #expect(try pair.sender.handle(.frameReceived(hello), now: Fixtures.start).first?.ignoredError == .lowOrderPublicKey)
        #expect(pair.sender.state == .awaitingHello)
    }

    @Test func helloWithNonZeroSequenceIsMalformed() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        let original = try Frame(bytes: pair.receiverFrames[0])
        let moved = Frame(type: .hello, transferID: original.transferID, sequence: 1, body: original.body).bytes
        #expect(try pair.sender.handle(.frameReceived(moved), now: Fixtures.start).first?.ignoredError == .malformed(.sequence))
    }
}

@Suite struct ReceiverHelloTests {
    @Test func receiverIgnoresAnyHelloAsUnexpectedInEveryState() throws {
        let pair = try SessionPair()
        try pair.run(until: .offerReceived)
        #expect(try pair.receiver.handle(.frameReceived(pair.receiverFrames[0]), now: Fixtures.start).first?.ignoredError
                == .unexpectedMessage(.hello, in: .reviewingOffer))
    }
}
