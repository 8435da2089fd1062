import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Spec 6.0 step 1 and 6.1 step 1: only finite times, in range; time never runs backwards.
@Suite struct ClockTests {
    static let nonFinite: [Double] = [.nan, .infinity, -.infinity, .signalingNaN]

    @Test(arguments: nonFinite)
    func aNonFiniteStartOrScanTimeIsInvalid(seconds: Double) throws {
        let when = Date(timeIntervalSince1970: seconds)
        #expect(throws: HandoffError.invalidClock) {
            try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                    random: InsecureDeterministicRandom(seed: 1), now: when)
        }
        let payload = try SessionPair().sender.payload
        #expect(throws: HandoffError.invalidClock) {
            try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 1), now: when)
        }
    }

    /// A NaN or infinite `now` never means "never expires": every event is refused with
    /// `invalidClock`, frames included, and nothing changes.
    @Test(arguments: nonFinite)
    func aNonFiniteEventTimeIsRefusedWhateverTheEvent(seconds: Double) throws {
        let when = Date(timeIntervalSince1970: seconds)
        let pair = try SessionPair()
        try pair.run(until: .receiverConfirmed)
        let accept = pair.receiverFrames[1]
        let password = Fixtures.secret(Fixtures.password)
        for event in [SenderEvent.tick, .cancel, .reject, .transportLost, .frameReceived(accept), .credentialProvided(password)] {
            #expect(throws: HandoffError.invalidClock) { try pair.sender.handle(event, now: when) }
        }
        #expect(password.isWiped)
        for event in [ReceiverEvent.tick, .cancel, .reject, .transportLost, .frameReceived(pair.senderFrames[1])] {
            #expect(throws: HandoffError.invalidClock) { try pair.receiver.handle(event, now: when) }
        }
        #expect(pair.sender.phase == .awaitingAccept)
        #expect(pair.receiver.phase == .awaitingCredentialFrame)
        try pair.run(until: .receiptReceived)
        #expect(pair.sender.outcome == .completed(.imported))
    }

    @Test func aNonFiniteTimeIsRefusedAfterTheEndToo() throws {
        let pair = try SessionPair()
        _ = try pair.send(.cancel)
        #expect(throws: HandoffError.invalidClock) { try pair.sender.handle(.tick, now: Date(timeIntervalSince1970: .nan)) }
    }

    /// Spec 6.1 step 1: `0 <= floor(now)` and `floor(now) + lifetime <= 2^32 - 1`.
    @Test func startTimesOutsideTheProtocolsRangeAreInvalid() throws {
        let limit = Double(UInt32.max) - 180
        for seconds in [-1, -0.5, limit + 1, limit + 1.5, 1e300] {
            #expect(throws: HandoffError.invalidClock, "\(seconds)") {
                try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                        random: InsecureDeterministicRandom(seed: 1), now: Date(timeIntervalSince1970: seconds))
            }
        }
        for seconds in [0, 0.5, limit, limit + 0.999] {
            let sender = try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                                 random: InsecureDeterministicRandom(seed: 1),
                                                 now: Date(timeIntervalSince1970: seconds))
            #expect(Double(sender.payload.expiry) == seconds.rounded(.down) + 180, "\(seconds)")
        }
    }

    /// A clock that jumps back cannot extend a session: the deadline stays absolute and an
    /// event with an earlier time is processed at the latest time seen.
    @Test func aClockThatJumpsBackDoesNotExtendTheSession() throws {
        let expiry = Fixtures.time(Fixtures.lifetime)
        let pair = try SessionPair()
        try pair.run(until: .revealReceived)
        #expect(try pair.send(.tick, at: Fixtures.time(179)).nextDeadline == expiry)
        let back = try pair.send(pair.typedCode, at: Fixtures.time(-3600))
        #expect(back.kinds == ["send(offer)"])
        #expect(back.nextDeadline == expiry)
        #expect(try pair.receive(.tick, at: Fixtures.time(-86_400)).nextDeadline == Fixtures.time(Fixtures.lifetime + Fixtures.skew))
        #expect(try pair.send(.tick, at: expiry).kinds == ["send(abort)", "finished(expired)"])
        #expect(try pair.receive(.frameReceived(pair.senderFrames[1]), at: Fixtures.time(Fixtures.lifetime + Fixtures.skew)).kinds
                == ["send(abort)", "finished(expired)"])
    }

    /// Fractional start, scan and event times (Spec 6.0 step 1: comparisons on real numbers).
    @Test func fractionalTimesCompareAsRealNumbers() throws {
        let pair = try SessionPair(start: Fixtures.time(0.25))
        #expect(pair.sender.payload.expiry == UInt32(Fixtures.startSeconds) + 180)
        try pair.run(until: .scanned, now: Fixtures.time(0.75))
        #expect(try pair.send(.tick, at: Fixtures.time(179.999_999)).kinds == [])
        #expect(try pair.send(.tick, at: Fixtures.time(180.000_001)).kinds == ["finished(expired)"])
        #expect(try pair.receive(.tick, at: Fixtures.time(209.999_999)).kinds == [])
        #expect(try pair.receive(.tick, at: Fixtures.time(210)).kinds == ["send(abort)", "finished(expired)"])
    }
}
