import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import Testing

/// The parsed sessions, loaded once for the parameterised replay.
enum SessionFiles {
    nonisolated(unsafe) static let sessions: [[String: Any]] = SessionReplayTests.sessions
}

/// Replays every scripted session and every sender start of `Vectors/sessions.json` through
/// the real state machines.
@Suite struct SessionReplayTests {
    static var file: [String: Any] { (try? VectorFiles.load("sessions.json")) ?? [:] }
    static var sessions: [[String: Any]] { (try? file.objects("sessions")) ?? [] }
    static var names: [String] { sessions.compactMap { $0["name"] as? String } }

    @Test func everyIssueScenarioIsPresent() {
        let names = Self.names
        #expect(names.count >= 90)
        for prefix in ["happy-", "receiver-rejects-", "sender-rejects-", "sender-cancels-", "receiver-cancels-", "crossing-abort",
                       "transport-lost-", "tampered-reveal", "tampered-", "expired-", "replayed-", "replayed-after-finish", "out-of-order",
                       "abort-overtakes-offer", "qr-scanned-twice", "mitm-own-key", "mitm-two-sessions", "contested-second-hello",
                       "contested-after-delivery", "low-order-hello", "wrong-transfer-id-and-type", "authenticated-bad-", "reveal-wrong-nonce",
                       "receiver-events-while-importing", "clock-jumps-back", "invalid-clock", "events-after-the-end",
                       "code-rejected-before-code-exists", "sender-awaiting-hello-frames", "expiry-before-refusal", "local-misuse",
                       "wrong-code-typed", "expired-awaiting-receipt"] {
            #expect(names.contains { $0.hasPrefix(prefix) }, "missing \(prefix)")
        }
    }

    @Test(arguments: names) func replay(_ name: String) throws {
        let session = try #require(SessionFiles.sessions.first { $0["name"] as? String == name })
        try SessionReplay(session).run()
    }

    /// The receivers show the code of their own pair (the sender shows none, Spec 4.4); a man
    /// in the middle's pairs have different codes, so what the sending person types from the
    /// honest receiver's screen does not match.
    @Test func manInTheMiddleShowsDifferentCodes() throws {
        func pairCode(_ session: [String: Any], sender: String, receiver: String) throws -> String {
            let pair = try #require(try session.objects("handshakes").first {
                $0["sender"] as? String == sender && $0["receiver"] as? String == receiver
            })
            return try pair.object("shortCode").string("digits")
        }
        let own = try #require(Self.sessions.first { $0["name"] as? String == "mitm-own-key" })
        let codes = try own.object("shortCodes")
        #expect(codes["sender"] == nil)
        #expect(try codes.string("intruder") == pairCode(own, sender: "sender", receiver: "intruder"))
        #expect(try own.objects("handshakes").count == 2)
        #expect(Set(try own.objects("handshakes").map { try $0.object("shortCode").string("digits") }).count == 2)
        let two = try #require(Self.sessions.first { $0["name"] as? String == "mitm-two-sessions" })
        let twoCodes = try two.object("shortCodes")
        #expect(try twoCodes.string("receiver") == pairCode(two, sender: "mitm-sender", receiver: "receiver"))
        #expect(try pairCode(two, sender: "sender", receiver: "mitm-receiver") != twoCodes.string("receiver"))
    }

    @Test func senderStarts() throws {
        let starts = try Self.file.objects("starts")
        #expect(starts.count >= 15)
        for entry in starts {
            let account = try entry.object("account")
            let result = identifier {
                let configuration = try SenderConfiguration(lifetime: UInt32(try entry.int("lifetime")))
                let rendezvous = try RendezvousToken(bytes: try entry.bytes("rendezvous"))
                let metadata = try SessionReplay.account(account)
                let seed = UInt64(try entry.int("seed")), now = try entry.date("now")
                let sender = try HandoffSender.start(account: metadata, rendezvous: rendezvous, configuration: configuration,
                                                     random: InsecureDeterministicRandom(seed: seed), now: now)
                #expect(try sender.payload.expiry == UInt32(entry.int("expiry")), "\(entry.name): expiry")
                #expect(try sender.payload.transferID.bytes == entry.bytes("transferID"), "\(entry.name): transfer ID")
                #expect(try sender.payload.text == entry.string("text"), "\(entry.name): text")
                #expect(sender.phase == .awaitingHello && sender.nextDeadline == sender.payload.expiryDate, "\(entry.name)")
            }
            #expect(try result == entry.string("result"), "\(entry.name)")
        }
    }
}
