import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Spec 6.1 and 6.6: a second device that saw the QR. Before the credential left, the
/// session is contested for everyone; after, the sender answers the second device and goes on.
@Suite struct ContestedTests {
    /// A second device scanning the same QR (another seed, so another key and hello).
    static func secondDevice(of pair: SessionPair) throws -> (HandoffReceiver, [UInt8]) {
        let (receiver, step) = try HandoffReceiver.scan(payload: pair.sender.payload,
                                                        random: InsecureDeterministicRandom(seed: 99), now: Fixtures.start)
        return (receiver, try #require(step.actions.first?.frame))
    }

    @Test(arguments: [SessionPair.Step.revealReceived, .offerReceived, .acceptReceived])
    func aSecondHelloBeforeDeliveryContestsTheSessionForAllThree(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: step)
        let (second, hello) = try Self.secondDevice(of: pair)
        let contested = try pair.send(.frameReceived(hello))
        #expect(contested.kinds == ["send(abort)", "reply(abort)", "finished(contested)"])
        #expect(pair.sender.outcome == .ended(.contested))
        #expect(pair.sender.memory.hasEnded)
        // The first receiver, on the session's channel:
        let toFirst = try #require(contested.actions[0].frame)
        #expect(try pair.receive(.frameReceived(toFirst)).kinds == ["finished(contested)"])
        // The second device, on its own keys (sequence 0):
        let toSecond = try #require(contested.actions[1].frame)
        #expect(try Frame(bytes: toSecond).sequence == 0)
        #expect(try second.handle(.frameReceived(toSecond), now: Fixtures.start).kinds == ["finished(contested)"])
        #expect(second.shortCode == nil)  // it never saw a code
        // The abort for one device does not open on the other.
        #expect(toFirst != toSecond)
    }

    /// After the credential left: the second device is told `contested`, the sender warns its
    /// person and the first receiver completes.
    @Test func aSecondHelloAfterDeliveryIsAnsweredAndTheSessionGoesOn() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialSent)
        let (second, hello) = try Self.secondDevice(of: pair)
        let answered = try pair.send(.frameReceived(hello))
        #expect(answered.kinds == ["reply(abort)", "anotherDeviceJoined"])
        #expect(answered.nextDeadline == Fixtures.time(Fixtures.lifetime + 120))
        #expect(pair.sender.phase == .awaitingReceipt)
        let reply = try #require(answered.actions.first?.frame)
        #expect(try second.handle(.frameReceived(reply), now: Fixtures.start).kinds == ["finished(contested)"])
        // The same hello again is not answered twice.
        #expect(try pair.send(.frameReceived(hello)).kinds == ["ignored(replayed)"])
        try pair.run(until: .receiptReceived)
        #expect(pair.receiver.outcome == .completed(.imported))
        #expect(pair.sender.outcome == .completed(.imported))
    }

    /// A second hello while the sender still waits for one is simply the first.
    @Test func theFirstHelloThatAuthenticatesWins() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        let (second, hello) = try Self.secondDevice(of: pair)
        let accepted = try pair.sender.handle(.frameReceived(hello), now: Fixtures.start)
        #expect(accepted.kinds == ["send(reveal)", "askForCode"])
        let reveal = try #require(accepted.actions.first?.frame)
        #expect(try second.handle(.frameReceived(reveal), now: Fixtures.start).kinds == ["showShortCode"])
        #expect(second.shortCode == pair.sender.shortCode)
        // The reveal is sealed for the second device's keys: the first receiver cannot open it.
        #expect(try pair.receive(.frameReceived(reveal)).kinds == ["ignored(authenticationFailed)"])
        // The first receiver's hello now contests.
        #expect(try pair.send(.frameReceived(pair.receiverFrames[0])).kinds
                == ["send(abort)", "reply(abort)", "finished(contested)"])
    }

    /// A hello whose tag does not verify (a device that never saw the QR) changes nothing.
    @Test(arguments: [SessionPair.Step.scanned, .revealReceived, .credentialSent])
    func aHelloThatDoesNotAuthenticateIsIgnoredInEveryPhase(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: step)
        let (_, hello) = try Self.secondDevice(of: pair)
        var forged = hello
        forged[forged.count - 1] ^= 0x01
        #expect(try pair.send(.frameReceived(forged)).kinds == ["ignored(authenticationFailed)"])
        #expect(pair.sender.phase == SessionPair.senderPhase(after: step))
        try pair.run(until: .receiptReceived)
        #expect(pair.sender.outcome == .completed(.imported))
    }

    /// A second device whose key gives a small-order shared secret is ignored (H3).
    @Test func aHelloWithALowOrderKeyIsIgnored() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        let hello = try Frame(bytes: pair.receiverFrames[0])
        let lowOrder = VectorPrimitives.frameBytes(type: .hello, transferID: hello.transferID, sequence: 0,
                                                   body: [UInt8](repeating: 0, count: 32) + hello.body.suffix(32))
        #expect(try pair.send(.frameReceived(lowOrder)).kinds == ["ignored(lowOrderPublicKey)"])
        #expect(pair.sender.phase == .awaitingHello)
    }
}
