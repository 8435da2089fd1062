import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

@Suite struct HappyPathTests {
    @Test func fullTransferDeliversTheAccountAndWipesEverySessionSecret() throws {
        let pair = try SessionPair()
        try pair.run(until: .receiptReceived)

        #expect(pair.sender.outcome == .completed(.imported))
        #expect(pair.receiver.outcome == .completed(.imported))
        let code = try #require(pair.senderCode)
        #expect(pair.receiverCode == code)
        #expect(pair.sender.shortCode == code)
        #expect(pair.receiver.shortCode == code)
        #expect(pair.shownAccount == Fixtures.account)
        let delivered = try #require(pair.delivered)
        #expect(delivered.metadata == Fixtures.account)
        // The credential is the app's: still intact after both sessions ended.
        #expect(!delivered.credential.isWiped)
        #expect(bytes(of: delivered.credential) == Array(Fixtures.password.utf8))
        #expect(pair.allSessionSecretsWiped)
        #expect(pair.sender.phase == .finished)
        #expect(pair.receiver.phase == .finished)
    }

    /// Every step's actions, phase and next deadline, in protocol order (Spec 1, 6.1, 6.2).
    @Test func actionsPhasesAndDeadlinesFollowTheProtocol() throws {
        let pair = try SessionPair()
        let expiry = Fixtures.time(Fixtures.lifetime)
        let receiverExpiry = Fixtures.time(Fixtures.lifetime + Fixtures.skew)
        let receiptWait = Fixtures.time(Fixtures.lifetime + 120)
        #expect(pair.sender.phase == .awaitingHello)
        #expect(pair.sender.nextDeadline == expiry)
        #expect(pair.sender.shortCode == nil)

        try pair.run(until: .scanned)
        #expect(pair.lastReceiverStep?.kinds == ["send(hello)"])
        #expect(pair.lastReceiverStep?.nextDeadline == receiverExpiry)
        #expect(pair.receiver.phase == .awaitingReveal)
        #expect(pair.receiver.shortCode == nil)  // no code before the reveal
        #expect(pair.receiver.effectiveExpiry == receiverExpiry)
        #expect(pair.receiver.expiryDate == expiry)

        let steps: [(SessionPair.Step, [String], Date?)] = [
            (.helloAccepted, ["send(reveal)", "askForCode"], expiry),
            (.revealReceived, ["showShortCode"], receiverExpiry),
            (.senderConfirmed, ["send(offer)"], expiry),
            (.offerReceived, ["showAccount"], receiverExpiry),
            (.receiverConfirmed, ["send(accept)"], receiverExpiry),
            (.acceptReceived, ["requestCredential"], expiry),
            (.credentialSent, ["send(credential)"], receiptWait),
            (.credentialReceived, ["deliverAccount"], nil),
            (.importFinished, ["send(receipt)", "finished(completed.imported)"], nil),
            (.receiptReceived, ["finished(completed.imported)"], nil),
        ]
        for (step, kinds, deadline) in steps {
            try pair.run(until: step)
            let isSender = [.helloAccepted, .senderConfirmed, .acceptReceived, .credentialSent, .receiptReceived].contains(step)
            let seen = isSender ? pair.lastSenderStep?.kinds : pair.lastReceiverStep?.kinds
            let seenDeadline = isSender ? pair.lastSenderStep?.nextDeadline : pair.lastReceiverStep?.nextDeadline
            #expect(seen == kinds, "\(step)")
            #expect(seenDeadline == deadline, "\(step)")
            #expect(pair.sender.phase == SessionPair.senderPhase(after: step), "\(step)")
            #expect(pair.receiver.phase == SessionPair.receiverPhase(after: step), "\(step)")
            #expect(pair.sender.nextDeadline == (pair.sender.phase == .awaitingReceipt ? receiptWait
                                                 : pair.sender.phase == .finished ? nil : expiry), "\(step)")
        }
        // The frames carry the sequence numbers of Spec 1: s2r reveal 0, offer 1, credential 2; r2s hello 0...
        #expect(try pair.senderFrames.map { try Frame(bytes: $0).sequence } == [0, 1, 2])
        #expect(try pair.receiverFrames.map { try Frame(bytes: $0).sequence } == [0, 1, 2])
        #expect(try pair.receiverFrames.map { try Frame(bytes: $0).type } == [.hello, .accept, .receipt])
    }

    @Test(arguments: ReceiptStatus.allCases)
    func everyReceiptStatusReachesTheSender(status: ReceiptStatus) throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        #expect(try pair.receive(.importFinished(status)).kinds == ["send(receipt)", "finished(completed.\(status.identifier))"])
        #expect(try pair.send(.frameReceived(pair.receiverFrames[2])).kinds == ["finished(completed.\(status.identifier))"])
        #expect(pair.sender.outcome == .completed(status))
        #expect(pair.receiver.outcome == .completed(status))
        #expect(pair.allSessionSecretsWiped)
    }

    @Test func accountLinkIDAndEveryFieldArriveUnchanged() throws {
        let account = try AccountMetadata(
            linkID: Fixtures.linkID, displayName: "\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}",
            emailAddress: "jos\u{E9}@b\u{FC}cher.example", username: "Jose\u{301} M", imapHost: "xn--bcher-kva.example",
            imapPort: 143, imapSecurity: .startTLS)
        let sender = try HandoffSender.start(account: account, rendezvous: Fixtures.rendezvous,
                                             random: InsecureDeterministicRandom(seed: 3), now: Fixtures.start)
        let (receiver, scanned) = try HandoffReceiver.scan(payload: sender.payload,
                                                           random: InsecureDeterministicRandom(seed: 4), now: Fixtures.start)
        let hello = try #require(scanned.actions.first?.frame)
        let reveal = try #require(sender.handle(.frameReceived(hello), now: Fixtures.start).actions.first?.frame)
        _ = try receiver.handle(.frameReceived(reveal), now: Fixtures.start)
        let offer = try #require(sender.handle(.codeEntered(sender.shortCode!.digits), now: Fixtures.start).actions.first?.frame)
        let shown = try receiver.handle(.frameReceived(offer), now: Fixtures.start)
        guard case .showAccount(let arrived, _) = shown.actions.first else { Issue.record("\(shown.kinds)"); return }
        #expect(arrived == account)
        #expect(arrived.linkID.bytes == Fixtures.linkID.bytes)
        #expect(Array(arrived.displayName.unicodeScalars) == Array(account.displayName.unicodeScalars))
        #expect(Array(arrived.username.utf8) == Array("Jose\u{301} M".utf8))  // not normalised
        #expect(arrived.imapSecurity == .startTLS)
        #expect(receiver.offeredAccount == account)
    }

    /// Spec 2.1: the sender draws its nonce, then its private key; the QR holds the commitment
    /// to the nonce and the public key, never the nonce.
    @Test func theQRCommitsToTheNonceDrawnFirstAndCarriesTheKeyDrawnSecond() throws {
        let pair = try SessionPair()
        let stream = Fixtures.randomBytes(seed: Fixtures.senderSeed, count: 64)
        let nonce = Array(stream[0..<32])
        let privateKey = Array(stream[32..<64])
        #expect(pair.sender.payload.commitment == VectorPrimitives.sha256([Array("AH4 commitment".utf8), nonce]))
        #expect(pair.sender.payload.senderPublicKey.bytes == (try VectorPrimitives.x25519PublicKey(privateKey: privateKey)))
        #expect(!pair.sender.payload.binary.contains(subsequence: nonce))
        #expect(pair.sender.payload.transferID.bytes
                == Array(VectorPrimitives.sha256([Array("AH4 transfer ID".utf8), pair.sender.payload.binary]).prefix(16)))
        // Until a hello authenticates the sender holds the nonce; the reveal carries it
        // encrypted, and the sender wipes it right after sealing (Spec 6.5).
        let held = pair.sender.keptSecrets
        #expect(held.count == 3)
        #expect(held.contains { $0.revealedBytes() == nonce })
        try pair.run(until: .helloAccepted)
        #expect(!pair.senderFrames[0].contains(subsequence: nonce))
        #expect(held.filter(\.isWiped).count == 1)
        #expect(!pair.sender.keptSecrets.contains { !$0.isWiped && $0.revealedBytes() == nonce })
    }

    @Test func differentSeedsGiveDifferentSessions() throws {
        let first = try SessionPair(seed: 1)
        let second = try SessionPair(seed: 2)
        #expect(first.sender.payload.transferID != second.sender.payload.transferID)
        #expect(first.sender.payload.commitment != second.sender.payload.commitment)
        #expect(first.sender.payload.senderPublicKey != second.sender.payload.senderPublicKey)
    }

    @Test func productionRandomSourceRunsAFullSession() throws {
        let sender = try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                             random: SystemRandomSource(), now: Fixtures.start)
        let (receiver, scanned) = try HandoffReceiver.scan(payload: sender.payload, random: SystemRandomSource(), now: Fixtures.start)
        let hello = try #require(scanned.actions.first?.frame)
        let accepted = try sender.handle(.frameReceived(hello), now: Fixtures.start)
        #expect(accepted.kinds == ["send(reveal)", "askForCode"])
        let reveal = try #require(accepted.actions.first?.frame)
        let revealed = try receiver.handle(.frameReceived(reveal), now: Fixtures.start)
        guard case .showShortCode(let code) = revealed.actions.first else { Issue.record("\(revealed.kinds)"); return }
        #expect(code == sender.shortCode)
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
