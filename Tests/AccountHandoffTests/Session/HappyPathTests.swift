import Foundation
import Testing
@_spi(Testing) @testable import AccountHandoff

@Suite struct HappyPathTests {
    @Test func fullTransferDeliversAccountAndCredentialAndWipesEverything() throws {
        let pair = try SessionPair()
        try pair.run(until: .receiptReceived)

        #expect(pair.sender.outcome == .completed(.imported))
        #expect(pair.receiver.outcome == .completed(.imported))
        #expect(pair.senderCode == pair.receiverCode)
        #expect(pair.shownAccount == Fixtures.account)
        let delivered = try #require(pair.delivered)
        #expect(delivered.metadata == Fixtures.account)
        // The credential buffer was readable when delivered and is wiped now the session ended.
        #expect(delivered.credential.isWiped)
        #expect(pair.allSecretsWiped)
    }

    @Test func accountLinkIDArrivesByteIdentical() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        let delivered = try #require(pair.delivered)
        #expect(delivered.metadata.linkID.bytes == Fixtures.linkID.bytes)
        #expect(delivered.metadata.linkID.uuid == UUID(uuidString: "6F1C2A9E-3B4D-4E5F-8A7B-1C2D3E4F5A6B"))
        #expect(pair.receiver.offeredAccount?.linkID == Fixtures.linkID)
    }

    @Test func credentialArrivesExactlyBeforeTheImportIsFinished() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        let delivered = try #require(pair.delivered)
        #expect(delivered.credential.withUnsafeBytes { Array($0) } == Array(Fixtures.password.utf8))
        #expect(pair.receiver.state == .awaitingImportResult)
    }

    @Test func actionsFollowTheProtocolOrder() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        #expect(pair.receiverFrames.count == 1)
        #expect(pair.receiver.state == .awaitingOffer)

        #expect(kinds(try pair.sender.handle(.frameReceived(pair.receiverFrames[0]), now: Fixtures.start)) == ["showShortCode"])
        #expect(kinds(pair.absorbSender(try pair.sender.handle(.codeConfirmed, now: Fixtures.start))) == ["send(offer)"])
        #expect(kinds(pair.absorbReceiver(try pair.receiver.handle(.frameReceived(pair.senderFrames[0]), now: Fixtures.start))) == ["showAccount"])
        #expect(kinds(pair.absorbReceiver(try pair.receiver.handle(.codeConfirmed, now: Fixtures.start))) == ["send(accept)"])
        #expect(kinds(try pair.sender.handle(.frameReceived(pair.receiverFrames[1]), now: Fixtures.start)) == ["requestCredential"])
        #expect(kinds(pair.absorbSender(try pair.sender.handle(.credentialProvided(SecretBytes(utf8: "pw")), now: Fixtures.start))) == ["send(credential)"])
        #expect(kinds(pair.absorbReceiver(try pair.receiver.handle(.frameReceived(pair.senderFrames[1]), now: Fixtures.start))) == ["deliverAccount"])
        #expect(kinds(pair.absorbReceiver(try pair.receiver.handle(.importFinished(.validationFailed), now: Fixtures.start)))
                == ["send(receipt)", "finished(completed(AccountHandoff.ReceiptStatus.validationFailed))"])
        #expect(try pair.sender.handle(.frameReceived(pair.receiverFrames[2]), now: Fixtures.start).first?.outcome == .completed(.validationFailed))
    }

    @Test(arguments: ReceiptStatus.allCases)
    func everyReceiptStatusReachesTheSender(status: ReceiptStatus) throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        let actions = pair.absorbReceiver(try pair.receiver.handle(.importFinished(status), now: Fixtures.start))
        #expect(actions.last?.outcome == .completed(status))
        #expect(try pair.sender.handle(.frameReceived(pair.receiverFrames[2]), now: Fixtures.start).first?.outcome == .completed(status))
        #expect(pair.allSecretsWiped)
    }

    @Test func bothSidesDeriveTheSameKeysAndTranscript() throws {
        let pair = try SessionPair()
        try pair.run(until: .receiverConfirmed)
        let senderChannel = try #require(pair.sender.channel)
        let receiverChannel = pair.receiver.channel
        #expect(senderChannel.keys.senderToReceiver.constantTimeEquals(receiverChannel.keys.senderToReceiver))
        #expect(senderChannel.keys.receiverToSender.constantTimeEquals(receiverChannel.keys.receiverToSender))
        #expect(!senderChannel.keys.senderToReceiver.constantTimeEquals(senderChannel.keys.receiverToSender))
        #expect(senderChannel.handshakeTranscript == receiverChannel.handshakeTranscript)
        // After the offer both transcripts chain the same frame.
        #expect(receiverChannel.transcript.hash != receiverChannel.handshakeTranscript)
    }

    @Test func differentSeedsGiveDifferentSessions() throws {
        let first = try SessionPair(seed: 1)
        let second = try SessionPair(seed: 2)
        #expect(first.sender.payload.transferID != second.sender.payload.transferID)
        #expect(first.sender.payload.challenge != second.sender.payload.challenge)
        #expect(first.sender.payload.senderPublicKey != second.sender.payload.senderPublicKey)
    }

    @Test func productionRandomSourceRunsAFullSession() throws {
        let sender = try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                             random: SystemRandomSource(), now: Fixtures.start)
        let (receiver, actions) = try HandoffReceiver.scan(payload: sender.payload, random: SystemRandomSource(), now: Fixtures.start)
        let hello = try #require(actions.first?.sentFrame)
        let shown = try sender.handle(.frameReceived(hello), now: Fixtures.start)
        guard case .showShortCode(let code) = shown.first else { Issue.record("no code: \(kinds(shown))"); return }
        #expect(code == receiver.shortCode)
    }
}
