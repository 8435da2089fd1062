import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// Each device declares its local-authentication gate to the other (Spec 3.4 `senderGate`, 3.6
/// `receiverGate`, 8.7): the receiving screen learns the sender's with the offered account,
/// before its person accepts; the sending screen learns the receiver's before its own gate asks
/// and the password is read. A key-holding peer that declares an undefined value ends the
/// session with the exact error, and nothing secret moves.
@Suite struct GateDeclarationTests {
    private struct Transfer {
        var senderUpdates: [SenderUpdate] = []
        var receiverUpdates: [String] = []
        var senderGate: GateDeclaration?
        var senderSnapshot = SenderSnapshot()
        var receiverSnapshotGate: GateDeclaration?
        var senderAsked: [LocalAuthenticationPurpose] = []
        var outcomes: (sender: SenderOutcome, receiver: ReceiverOutcome)?
    }

    /// One whole transfer over the in-memory channel between two devices whose authenticators
    /// always let the person through and declare `senderDeclares` and `receiverDeclares`.
    private func transfer(senderDeclares: GateDeclaration, receiverDeclares: GateDeclaration) async throws -> Transfer {
        let clock = ManualHandoffClock(start: Fixtures.start)
        let channels = InMemoryFrameChannel.pair()
        let senderGate = ScriptedAuthenticator(always: .authenticated, gateDeclaration: senderDeclares)
        let sender = HandoffSenderSession(account: Fixtures.account, rendezvous: Fixtures.rendezvous, channel: channels.sender,
                                          credential: { _ in Fixtures.secret(Fixtures.password) }, authenticator: senderGate,
                                          registry: .inMemory(), clock: clock)
        let sent = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        let channel = channels.receiver
        let receiver = HandoffReceiverSession(payload: payload, importer: RecordingImporter(),
                                              authenticator: ScriptedAuthenticator(always: .authenticated, gateDeclaration: receiverDeclares),
                                              registry: .inMemory(), clock: clock) { _ in channel }
        let screen = ReceivingScreen()
        let sendingPerson = Task { () -> [SenderUpdate] in
            var seen: [SenderUpdate] = []
            for await update in sender.updates {
                seen.append(update)
                if case .receiverJoined = update, let code = await screen.read() { _ = try? await sender.enterCode(code.grouped) }
            }
            return seen
        }
        let receivingPerson = Task { () -> ([String], GateDeclaration?) in
            var seen: [String] = []
            var declared: GateDeclaration?
            for await update in receiver.updates {
                switch update {
                case .codeReady(let code):
                    seen.append("codeReady")
                    await screen.show(code)
                case .accountOffered(_, _, let senderGate):
                    seen.append("accountOffered")
                    declared = senderGate
                    try? await receiver.accept()
                case .authenticating: seen.append("authenticating")
                case .finished: await screen.close()
                default: break
                }
            }
            await screen.close()
            return (seen, declared)
        }
        let received = await receiver.run()
        let outcome = await sent.value
        var result = Transfer()
        result.senderUpdates = await sendingPerson.value
        (result.receiverUpdates, result.senderGate) = await receivingPerson.value
        result.senderSnapshot = sender.snapshot
        result.receiverSnapshotGate = receiver.snapshot.senderGate
        result.senderAsked = senderGate.purposes
        result.outcomes = (outcome, received)
        return result
    }

    private static func index(of wanted: (SenderUpdate) -> Bool, in updates: [SenderUpdate]) -> Int? {
        updates.firstIndex(where: wanted)
    }

    @Test func aReceiverThatSkipsItsGateIsToldToTheSenderBeforeThePasswordIsRead() async throws {
        let transfer = try await transfer(senderDeclares: .asks, receiverDeclares: .skipped)
        #expect(transfer.outcomes?.sender == .completed(.imported))
        let accepted = try #require(Self.index(of: { if case .receiverAccepted(.skipped) = $0 { true } else { false } },
                                               in: transfer.senderUpdates))
        let asking = try #require(Self.index(of: { if case .authenticating = $0 { true } else { false } }, in: transfer.senderUpdates))
        let sent = try #require(Self.index(of: { if case .credentialSent = $0 { true } else { false } }, in: transfer.senderUpdates))
        // The declaration comes before this device's gate asks, and the password is read only
        // after that gate (Spec 8.7), so before the password too.
        #expect(accepted < asking && asking < sent)
        #expect(transfer.senderSnapshot.receiverGate == .skipped)
        #expect(transfer.senderAsked == [.sendCredential(Fixtures.account, receiverGate: .skipped)])
        #expect(transfer.senderAsked.first?.reason(in: .english)
                == "Send the password of \(Fixtures.account.emailAddress) to the receiving device. The receiving device did not ask its person to prove who they are.")
        #expect(GateDeclaration.skipped.sentence(shownBy: .sender, in: .english)
                == "The receiving device did not ask its person to prove who they are.")
        let german = try #require(GateDeclaration.skipped.sentence(shownBy: .sender, in: .german))
        #expect(german != GateDeclaration.skipped.sentence(shownBy: .sender, in: .english))
        // The sender declared it asks: the receiving screen has nothing to warn about.
        #expect(transfer.senderGate == .asks && transfer.receiverSnapshotGate == .asks)
        #expect(GateDeclaration.asks.sentence(shownBy: .receiver, in: .english) == nil)
    }

    @Test func aSenderThatSkipsItsGateIsToldToTheReceiverWithTheAccount() async throws {
        let transfer = try await transfer(senderDeclares: .skipped, receiverDeclares: .asks)
        #expect(transfer.outcomes?.receiver == .completed(.imported))
        #expect(transfer.senderGate == .skipped && transfer.receiverSnapshotGate == .skipped)
        // With the account, before the receiving person accepts and its own gate asks.
        let offered = try #require(transfer.receiverUpdates.firstIndex(of: "accountOffered"))
        let asking = try #require(transfer.receiverUpdates.firstIndex(of: "authenticating"))
        #expect(offered < asking)
        #expect(GateDeclaration.skipped.sentence(shownBy: .receiver, in: .english)
                == "The sending device will not ask its person to prove who they are before the password leaves.")
        let german = try #require(GateDeclaration.skipped.sentence(shownBy: .receiver, in: .german))
        #expect(german != GateDeclaration.skipped.sentence(shownBy: .receiver, in: .english))
        #expect(transfer.senderSnapshot.receiverGate == .asks)
        #expect(GateDeclaration.asks.sentence(shownBy: .sender, in: .english) == nil)
    }

    /// A key-holding receiver whose accept declares 3: the sender ends
    /// `failed.malformed.receiverGate`, sends nothing and never asks for the password (Spec 6.1).
    @Test func anAcceptDeclaringThreeEndsTheSenderWithoutAFrame() throws {
        let pair = try SessionPair()
        try pair.run(until: .offerReceived)
        let forged = try #require(pair.receiver.sealForgedFrame(.accept, plaintext: [3], linkID: Fixtures.account.linkID))
        let step = try pair.send(.frameReceived(forged))
        #expect(step.actions.map(\.kind) == ["finished(failed.malformed.receiverGate)"])
        #expect(pair.sender.outcome == .ended(.failed(.malformed(.receiverGate))))
        #expect(pair.senderFrames.count == 2)  // the reveal and the offer; no abort
    }

    /// A key-holding sender whose offer declares 3: the receiver ends
    /// `failed.malformed.senderGate` and shows nothing (Spec 3.4, 6.2).
    @Test func anOfferDeclaringThreeEndsTheReceiverWithoutShowingIt() throws {
        let pair = try SessionPair()
        try pair.run(until: .revealReceived)
        var plaintext = AccountMetadataCodec.encode(Fixtures.account, senderGate: .asks)
        let recordLength = Int(plaintext[0]) << 8 | Int(plaintext[1])
        plaintext[2 + recordLength - 1] = 3
        let forged = try #require(pair.sender.sealForgedFrame(.offer, plaintext: plaintext, linkID: nil))
        let step = try pair.receive(.frameReceived(forged))
        #expect(step.actions.map(\.kind) == ["finished(failed.malformed.senderGate)"])
        #expect(pair.receiver.outcome == .ended(.failed(.malformed(.senderGate))))
        #expect(pair.shownAccount == nil)
    }
}
