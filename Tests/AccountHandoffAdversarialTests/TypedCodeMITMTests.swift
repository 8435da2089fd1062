import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import Testing

/// The typed way against a man in the middle that runs two sessions at once (Spec 8.8): M is a
/// receiver towards the honest sender S (it types a guess of S's code) and a sender towards the
/// honest receiver R (R types S's code, read off S's screen, and reaches M: a hostile relay or
/// a device advertising S's nameplate). The secret space is shrunk to 10 values in the test, so
/// that matches can be counted: each end must pair with M exactly when M's guess is S's secret,
/// and every other guess must retire S's code or end R, never pair.
@Suite struct TypedCodeMITMTests {
    /// The shrunk space: secrets 0...9.
    static let space: UInt32 = 10
    static let trials = 100
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let nameplate: [UInt8] = [0x01, 0xab]  // 427

    /// A random source that draws pseudo-randomly, except that the typed code's nameplate and
    /// secret (the 3rd and 4th requests of a sending session, Spec 2.1, 12.3) are given.
    final class ChosenCodeRandom: RandomSource {
        private let stream: InsecureDeterministicRandom
        private let secret: UInt32
        private var requests = 0

        init(seed: UInt64, secret: UInt32) {
            stream = InsecureDeterministicRandom(seed: seed)
            self.secret = secret
        }

        func fill(_ buffer: UnsafeMutableRawBufferPointer) {
            requests += 1
            switch requests {
            case 3: buffer.copyMemory(from: TypedCodeMITMTests.nameplate.withUnsafeBytes { $0 })
            case 4: buffer.copyMemory(from: [UInt8(secret >> 24), UInt8(secret >> 16 & 0xff), UInt8(secret >> 8 & 0xff),
                                             UInt8(secret & 0xff)].withUnsafeBytes { $0 })
            default: stream.fill(buffer)
            }
        }
    }

    static func digits(secret: UInt32) -> String {
        let ten = "427" + String(format: "%07d", secret)
        return ten + String(DammCheckDigit.interim(ten))
    }

    static func sender(secret: UInt32, seed: UInt64) throws -> HandoffSender {
        try HandoffSender.start(account: try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Ada",
                                                             emailAddress: "ada@example.org", username: "ada",
                                                             imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls),
                                rendezvous: try RendezvousToken(bytes: [1, 2, 3]),
                                random: ChosenCodeRandom(seed: seed, secret: secret), now: now, typedRoutes: [.localNetwork])
    }

    /// One run between a sending and a receiving state machine; whether the sender paired.
    static func run(_ sender: HandoffSender, _ receiver: HandoffReceiver) throws -> (senderPaired: Bool, receiverPaired: Bool) {
        guard case .startTypedRun(_, let pakeInit) = try sender.handle(.typedRunRequested(.localNetwork), now: now).actions.first,
              case .send(let reply) = try receiver.handle(.frameReceived(pakeInit), now: now).actions.first else {
            throw HandoffError.invalidConfiguration
        }
        let answer = try sender.handle(.frameReceived(reply), now: now).actions
        let paired = answer.contains { if case .pairedByTypedCode = $0 { true } else { false } }
        for case .send(let frame) in answer.prefix(2) { _ = try receiver.handle(.frameReceived(frame), now: now) }
        for case .reply(let frame) in answer { _ = try receiver.handle(.frameReceived(frame), now: now) }
        return (paired, receiver.phase == .awaitingOffer)
    }

    @Test func eachEndPairsWithTheAttackerExactlyWhenItsOneGuessIsRight() throws {
        let guesses = InsecureDeterministicRandom(seed: 2026)
        func draw() -> UInt32 {
            var bytes = [UInt8](repeating: 0, count: 4)
            bytes.withUnsafeMutableBytes { guesses.fill($0) }
            return bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } % Self.space
        }
        var matchesAtSender = 0, matchesAtReceiver = 0, rightGuessesAtSender = 0, rightGuessesAtReceiver = 0
        for trial in 0..<Self.trials {
            let secret = draw(), guessForSender = draw(), guessForReceiver = draw()
            let honestSender = try Self.sender(secret: secret, seed: UInt64(trial) * 4)
            // M as receiver towards S: one guess, then S's code is retired or S pairs with M.
            let mAsReceiver = try HandoffReceiver.startTyped(code: try TypedCode(entry: Self.digits(secret: guessForSender)),
                                                             route: .localNetwork, random: InsecureDeterministicRandom(seed: UInt64(trial) * 4 + 1),
                                                             now: Self.now)
            let atSender = try Self.run(honestSender, mAsReceiver)
            // M as sender towards R, who typed S's code: M's own code is its guess.
            let mAsSender = try Self.sender(secret: guessForReceiver, seed: UInt64(trial) * 4 + 2)
            let honestReceiver = try HandoffReceiver.startTyped(code: try TypedCode(entry: Self.digits(secret: secret)),
                                                                route: .localNetwork,
                                                                random: InsecureDeterministicRandom(seed: UInt64(trial) * 4 + 3), now: Self.now)
            let atReceiver = try Self.run(mAsSender, honestReceiver)

            #expect(atSender.senderPaired == (guessForSender == secret), "trial \(trial): the sender")
            #expect(atReceiver.receiverPaired == (guessForReceiver == secret), "trial \(trial): the receiver")
            if !atSender.senderPaired { #expect(honestSender.typedCode?.digits != Self.digits(secret: secret)) }
            if !atReceiver.receiverPaired { #expect(honestReceiver.outcome == .ended(.failed(.typedCodeMismatch))) }
            matchesAtSender += atSender.senderPaired ? 1 : 0
            matchesAtReceiver += atReceiver.receiverPaired ? 1 : 0
            rightGuessesAtSender += guessForSender == secret ? 1 : 0
            rightGuessesAtReceiver += guessForReceiver == secret ? 1 : 0
        }
        // One guess per code at each end: the matches are the right guesses, about 1 in 10 here
        // (1 in 10^7 with the real space).
        #expect(matchesAtSender == rightGuessesAtSender && matchesAtReceiver == rightGuessesAtReceiver)
        #expect((3...20).contains(matchesAtSender) && (3...20).contains(matchesAtReceiver),
                "\(matchesAtSender) and \(matchesAtReceiver) matches in \(Self.trials) trials")
        print("typed MITM, space \(Self.space), \(Self.trials) trials: \(matchesAtSender) matches at the sender, "
              + "\(matchesAtReceiver) at the receiver")
    }
}
