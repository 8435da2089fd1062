import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Frames an attacker can replay, reorder, tamper with or forge (Spec 5, 6.0): unauthenticated
/// ones never change the state; authenticated but invalid ones end the session as a failure.
@Suite struct ReplayAndInjectionTests {
    // MARK: Unauthenticated frames change nothing

    @Test func replayedFramesAreIgnoredOnBothSides() throws {
        let pair = try SessionPair()
        try pair.run(until: .acceptReceived)
        #expect(try pair.send(.frameReceived(pair.receiverFrames[0])).kinds == ["ignored(replayed)"])  // hello (H1)
        #expect(try pair.send(.frameReceived(pair.receiverFrames[1])).kinds == ["ignored(replayed)"])  // accept (E1)
        #expect(try pair.receive(.frameReceived(pair.senderFrames[0])).kinds == ["ignored(replayed)"])  // reveal
        #expect(try pair.receive(.frameReceived(pair.senderFrames[1])).kinds == ["ignored(replayed)"])  // offer
        try pair.run(until: .receiptReceived)
        #expect(pair.sender.outcome == .completed(.imported))
    }

    @Test func anOfferBeforeTheRevealIsOutOfOrderAndTheSessionRecovers() throws {
        let pair = try SessionPair()
        try pair.run(until: .helloAccepted)
        try pair.send(pair.typedCode)
        #expect(try pair.receive(.frameReceived(pair.senderFrames[1])).kinds == ["ignored(outOfOrder)"])
        #expect(pair.receiver.phase == .awaitingReveal)
        #expect(try pair.receive(.frameReceived(pair.senderFrames[0])).kinds == ["showShortCode"])
        #expect(try pair.receive(.frameReceived(pair.senderFrames[1])).kinds == ["showAccount"])
    }

    /// An abort may overtake the frame its sender sent just before it (E2).
    @Test func anAbortMaySkipAheadOfTheFrameBeforeIt() throws {
        let pair = try SessionPair()
        try pair.run(until: .receiverConfirmed)
        let abort = try #require(try pair.receive(.reject).actions.first?.frame)
        #expect(try Frame(bytes: abort).sequence == 2)
        #expect(try pair.send(.frameReceived(abort)).kinds == ["finished(rejected.peer)"])
    }

    @Test func everyTamperedByteOfAnOfferFailsAuthentication() throws {
        let pair = try SessionPair()
        try pair.run(until: .senderConfirmed)
        let offer = pair.senderFrames[1]
        for index in [1, 2, 17, 18, 21, 24, 100, offer.count - 1] {
            var tampered = offer
            tampered[index] ^= 0x80
            let kinds = try pair.receive(.frameReceived(tampered)).kinds
            let expected = switch index {
            case 1: "ignored(unknownMessageType)"  // type 0x82
            case 2, 17: "ignored(unknownTransfer)"
            case 18, 21: "ignored(outOfOrder)"  // sequence
            default: "ignored(authenticationFailed)"
            }
            #expect(kinds == [expected], "byte \(index)")
        }
        #expect(pair.receiver.phase == .awaitingOffer)
        try pair.run(until: .receiptReceived)
        #expect(pair.receiver.outcome == .completed(.imported))
    }

    @Test func theHandBuiltOfferRecordIsTheLibrarysEncoding() {
        #expect(OfferRecord().plaintext == VectorPrimitives.offerPlaintext(Fixtures.account))
    }

    @Test func framesThatAreNotFramesAreIgnoredWithTheDecodingError() throws {
        let pair = try SessionPair()
        try pair.run(until: .revealReceived)
        let cases: [([UInt8], String)] = [
            ([], "ignored(malformed.frameHeader)"),
            ([UInt8](repeating: 0, count: 23), "ignored(malformed.frameHeader)"),
            ([UInt8](repeating: 2, count: 4097), "ignored(oversizedFrame)"),
            ([1] + pair.senderFrames[0].dropFirst(), "ignored(unsupportedVersion)"),  // a version-1 frame
        ]
        for (bytes, expected) in cases {
            #expect(try pair.send(.frameReceived(bytes)).kinds == [expected])
            #expect(try pair.receive(.frameReceived(bytes)).kinds == [expected])
        }
        #expect(pair.sender.phase == .awaitingCodeConfirmation)
        #expect(pair.receiver.phase == .awaitingOffer)
    }

    @Test func framesInTheWrongPlaceAreUnexpected() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        // A non-hello frame at a sender that has no keys yet.
        let early = VectorPrimitives.frameBytes(type: .accept, transferID: pair.sender.payload.transferID, sequence: 1,
                                                body: [UInt8](repeating: 0, count: 17))
        #expect(try pair.send(.frameReceived(early)).actions.first?.ignoredError
                == .unexpectedMessage(.accept, in: .sender(.awaitingHello)))
        // A hello at the receiver.
        #expect(try pair.receive(.frameReceived(pair.receiverFrames[0])).actions.first?.ignoredError
                == .unexpectedMessage(.hello, in: .receiver(.awaitingReveal)))
        // A frame for another transfer.
        let other = try SessionPair(seed: 500)
        try other.run(until: .helloAccepted)
        #expect(try pair.receive(.frameReceived(other.senderFrames[0])).kinds == ["ignored(unknownTransfer)"])
        #expect(try pair.send(.frameReceived(other.receiverFrames[0])).kinds == ["ignored(unknownTransfer)"])
        // The receiver checks the transfer ID before it refuses a hello (Spec 6.0).
        #expect(try pair.receive(.frameReceived(other.receiverFrames[0])).kinds == ["ignored(unknownTransfer)"])
        #expect(pair.sender.phase == .awaitingHello)
    }

    @Test func framesAfterTheEndAreIgnoredAsFinished() throws {
        let pair = try SessionPair()
        try pair.run(until: .receiptReceived)
        for frame in pair.receiverFrames {
            #expect(try pair.send(.frameReceived(frame)).kinds == ["ignored(sessionFinished)"])
        }
        for frame in pair.senderFrames {
            #expect(try pair.receive(.frameReceived(frame)).kinds == ["ignored(sessionFinished)"])
        }
    }

    /// While the app imports, no frame is accepted at all, an authenticated abort included.
    @Test func whileImportingEvenAnAuthenticatedAbortIsUnexpected() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        let abort = try #require(pair.sender.sealForgedFrame(.abort, plaintext: [1], linkID: nil))
        #expect(try pair.receive(.frameReceived(abort)).actions.first?.ignoredError
                == .unexpectedMessage(.abort, in: .receiver(.awaitingImportResult)))
        #expect(pair.receiver.phase == .awaitingImportResult)
    }

    // MARK: Authenticated but invalid: a malicious peer holding the keys

    /// A sender that reveals a nonce other than the one its QR committed to (Spec 5.2).
    @Test func aRevealWithAnotherNonceFailsWithCommitmentMismatch() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        let malicious = try MaliciousSender(pair: pair)
        let reveal = try malicious.seal(.reveal, plaintext: [UInt8](repeating: 0xEE, count: 32))
        let step = try pair.receive(.frameReceived(reveal))
        #expect(step.kinds == ["finished(failed.commitmentMismatch)"])
        #expect(pair.receiver.outcome == .ended(.failed(.commitmentMismatch)))
        #expect(pair.receiver.shortCode == nil)
        #expect(pair.receiverFrames.count == 1)  // no frame sent in answer
        #expect(pair.receiver.memory.hasEnded)
    }

    @Test func theRealNonceThroughTheSameForgeryPathShowsTheCode() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        let malicious = try MaliciousSender(pair: pair)
        let nonce = Array(Fixtures.randomBytes(seed: Fixtures.senderSeed, count: 32))
        #expect(try pair.receive(.frameReceived(malicious.seal(.reveal, plaintext: nonce))).kinds == ["showShortCode"])
        try pair.run(until: .helloAccepted)
        #expect(pair.receiver.shortCode == pair.sender.shortCode)
    }

    @Test func aRevealOfTheWrongLengthIsMalformedBody() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        let malicious = try MaliciousSender(pair: pair)
        #expect(try pair.receive(.frameReceived(malicious.seal(.reveal, plaintext: [1]))).kinds == ["ignored(malformed.body)"])
    }

    static let invalidOffers: [(String, [UInt8], String)] = {
        let valid = VectorPrimitives.offerPlaintext(Fixtures.account)
        var badPadding = valid
        badPadding[valid.count - 1] = 1
        let bidiPlaintext = OfferRecord(displayName: Array("Ada\u{202E}".utf8)).plaintext
        return [
            ("padding", badPadding, "finished(failed.malformed.padding)"),
            ("bidi override in the display name", bidiPlaintext, "finished(failed.malformed.displayName)"),
            ("invalid UTF-8 in the display name", OfferRecord(displayName: [0x41, 0xC0, 0x80]).plaintext,
             "finished(failed.malformed.displayName)"),
            ("a surrogate in the username", OfferRecord(username: [0x61, 0xED, 0xA0, 0x80]).plaintext,
             "finished(failed.malformed.username)"),
            ("port 0", OfferRecord(port: 0).plaintext, "finished(failed.malformed.imapPort)"),
            ("plaintext IMAP", OfferRecord(security: 0).plaintext, "finished(failed.malformed.imapSecurity)"),
            ("sender gate 0", OfferRecord(senderGate: 0).plaintext, "finished(failed.malformed.senderGate)"),
            ("trailing byte", OfferRecord(trailing: [0]).plaintext, "finished(failed.malformed.trailingBytes)"),
            ("host with a trailing dot", OfferRecord(host: Array("imap.example.org.".utf8)).plaintext,
             "finished(failed.malformed.imapHost)"),
        ]
    }()

    @Test func anAuthenticatedOfferThatDoesNotDecodeEndsTheSession() throws {
        for (name, plaintext, expected) in Self.invalidOffers {
            let pair = try SessionPair()
            try pair.run(until: .revealReceived)
            let offer = try #require(pair.sender.sealForgedFrame(.offer, plaintext: plaintext, linkID: nil))
            #expect(try pair.receive(.frameReceived(offer)).kinds == [expected], "\(name)")
            #expect(pair.shownAccount == nil)
            #expect(pair.receiverFrames.count == 1, "\(name)")
        }
    }

    @Test func anAuthenticatedCredentialThatDoesNotDecodeEndsTheSession() throws {
        var nonZeroPadding = VectorPrimitives.credentialPlaintextForTest(Array("pw".utf8))
        nonZeroPadding[1023] = 1
        var tooLong = VectorPrimitives.credentialPlaintextForTest(Array("pw".utf8))
        tooLong[0] = 0x03
        tooLong[1] = 0xFF  // 1023
        var empty = VectorPrimitives.credentialPlaintextForTest(Array("pw".utf8))
        empty[0] = 0
        empty[1] = 0
        let cases: [([UInt8], String)] = [
            (nonZeroPadding, "finished(failed.malformed.padding)"),
            (tooLong, "finished(failed.malformed.credential)"),
            (empty, "finished(failed.malformed.credential)"),
            (Array(nonZeroPadding.prefix(1023)), "ignored(malformed.body)"),
        ]
        for (plaintext, expected) in cases {
            let pair = try SessionPair()
            try pair.run(until: .acceptReceived)
            let credential = try #require(pair.sender.sealForgedFrame(.credential, plaintext: plaintext, linkID: Fixtures.linkID))
            #expect(try pair.receive(.frameReceived(credential)).kinds == [expected])
            #expect(pair.delivered == nil)
        }
    }

    /// Account frames bind the offered account's link ID (Spec 4.3): one sealed for another
    /// account does not authenticate.
    @Test func aCredentialBoundToAnotherAccountFailsAuthentication() throws {
        let pair = try SessionPair()
        try pair.run(until: .acceptReceived)
        let other = AccountLinkID(uuid: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!)
        let plaintext = VectorPrimitives.credentialPlaintextForTest(Array("pw".utf8))
        let credential = try #require(pair.sender.sealForgedFrame(.credential, plaintext: plaintext, linkID: other))
        #expect(try pair.receive(.frameReceived(credential)).kinds == ["ignored(authenticationFailed)"])
        #expect(pair.receiver.phase == .awaitingCredentialFrame)
    }

    @Test func authenticatedReceiptsAndAbortsWithUndefinedValuesFail() throws {
        let receipt = try SessionPair()
        try receipt.run(until: .credentialReceived)
        let badReceipt = try #require(receipt.receiver.sealForgedFrame(.receipt, plaintext: [9], linkID: Fixtures.linkID))
        #expect(try receipt.send(.frameReceived(badReceipt)).kinds == ["finished(deliveredUnconfirmed.failed.malformed.receiptStatus)"])

        let abort = try SessionPair()
        try abort.run(until: .revealReceived)
        let badAbort = try #require(abort.receiver.sealForgedFrame(.abort, plaintext: [0], linkID: nil))
        #expect(try abort.send(.frameReceived(badAbort)).kinds == ["finished(failed.malformed.abortReason)"])

        let late = try SessionPair()
        try late.run(until: .credentialReceived)
        let lateAbort = try #require(late.receiver.sealForgedFrame(.abort, plaintext: [3], linkID: nil))
        #expect(try late.send(.frameReceived(lateAbort)).kinds == ["finished(deliveredUnconfirmed.contested)"])

        let toReceiver = try SessionPair()
        try toReceiver.run(until: .offerReceived)
        let senderAbort = try #require(toReceiver.sender.sealForgedFrame(.abort, plaintext: [7], linkID: nil))
        #expect(try toReceiver.receive(.frameReceived(senderAbort)).kinds == ["finished(failed.malformed.abortReason)"])
    }

    /// E3 before E4: an authenticated frame of a type the state does not expect is ignored.
    @Test func anAuthenticatedFrameOfTheWrongTypeIsUnexpected() throws {
        let pair = try SessionPair()
        try pair.run(until: .revealReceived)
        let accept = try #require(pair.receiver.sealForgedFrame(.accept, plaintext: [1], linkID: Fixtures.linkID))
        #expect(try pair.send(.frameReceived(accept)).actions.first?.ignoredError
                == .unexpectedMessage(.accept, in: .sender(.awaitingCodeConfirmation)))
        let credential = try #require(pair.sender.sealForgedFrame(
            .credential, plaintext: VectorPrimitives.credentialPlaintextForTest([1]), linkID: Fixtures.linkID))
        #expect(try pair.receive(.frameReceived(credential)).actions.first?.ignoredError
                == .unexpectedMessage(.credential, in: .receiver(.awaitingOffer)))
    }
}

/// A sender that holds the session's real private key (known from the seed) but seals what it
/// likes: the test plays a sender that breaks the protocol.
struct MaliciousSender {
    let channel: SecureChannel

    init(pair: SessionPair) throws {
        let payload = pair.sender.payload
        let arena = try SessionArena(byteCount: HandoffSender.arenaByteCount)
        let privateKey = Array(Fixtures.randomBytes(seed: Fixtures.senderSeed, count: 64)[32...]).withUnsafeBytes { arena.keep(copying: $0) }
        let commitment = payload.commitment.withUnsafeBytes { arena.keep(copying: $0) }
        let hello = pair.receiverFrames[0]
        channel = try HelloHandshake.verify(Frame(bytes: hello), bytes: hello, privateKey: privateKey, commitment: commitment,
                                            initial: Transcript(payload: payload), arena: arena) { $0.keep(in: arena, payload: payload) }
    }

    func seal(_ type: MessageType, plaintext: [UInt8]) throws -> [UInt8] {
        plaintext.withUnsafeBytes { channel.seal(type, plaintext: $0) }
    }
}

/// An offer record built field by field (Spec 3.4), to produce what `AccountMetadata` refuses.
struct OfferRecord {
    var displayName = Array("Ada Lovelace".utf8)
    var email = Array("ada@example.org".utf8)
    var username = Array("ada".utf8)
    var host = Array("imap.example.org".utf8)
    var port: UInt16 = 993
    var security: UInt8 = 1
    var senderGate: UInt8 = 1
    var trailing: [UInt8] = []

    var plaintext: [UInt8] {
        var record = Fixtures.linkID.bytes
        for field in [displayName, email, username, host] {
            record += [UInt8(field.count >> 8), UInt8(field.count & 0xFF)] + field
        }
        record += [UInt8(port >> 8), UInt8(port & 0xFF), security, senderGate] + trailing
        let total = 2 + record.count
        let padded = (total + 255) / 256 * 256
        return [UInt8(record.count >> 8), UInt8(record.count & 0xFF)] + record + [UInt8](repeating: 0, count: padded - total)
    }
}

extension VectorPrimitives {
    /// The credential plaintext of a valid password (Spec 3.5).
    static func credentialPlaintextForTest(_ password: [UInt8]) -> [UInt8] {
        try! credentialPlaintext(password)
    }
}
