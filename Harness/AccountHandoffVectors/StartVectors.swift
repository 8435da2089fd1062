import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// `sessions.json` `starts`: the sender's `start` (Spec 6.1 steps 0a-3) at the edges of the
/// clock range and of the lifetime, and the construction checks of its inputs (rendezvous
/// token, account metadata) that come before it.
enum StartVectors {
    struct Case {
        let name: String
        var now: Double = VectorSupport.startTime
        var lifetime: UInt32 = 180
        var rendezvousLength = 8
        var displayName = "Ada Lovelace"
        var port: UInt16 = 993
        let expected: HandoffError?
    }

    static func make() throws -> [JSONValue] {
        let top = Double(UInt32.max)
        let cases: [Case] = [
            Case(name: "typical start", expected: nil),
            Case(name: "fractional start: expiry = floor(now) + lifetime", now: VectorSupport.startTime + 0.75, expected: nil),
            Case(name: "now = 0 (the earliest)", now: 0, lifetime: 30, expected: nil),
            Case(name: "now = -0.5: floor(now) < 0", now: -0.5, expected: .invalidClock),
            Case(name: "now is NaN", now: .nan, expected: .invalidClock),
            Case(name: "now is +infinity", now: .infinity, expected: .invalidClock),
            Case(name: "now is -infinity", now: -.infinity, expected: .invalidClock),
            Case(name: "floor(now) + lifetime = 2^32 - 1 (the latest expiry)", now: top - 180 + 0.5, expected: nil),
            Case(name: "floor(now) + lifetime = 2^32", now: top - 179, expected: .invalidClock),
            Case(name: "lifetime 30 (the shortest)", lifetime: 30, expected: nil),
            Case(name: "lifetime 600 (the longest)", lifetime: 600, expected: nil),
            Case(name: "lifetime 29 cannot be configured", lifetime: 29, expected: .invalidConfiguration),
            Case(name: "lifetime 601 cannot be configured", lifetime: 601, expected: .invalidConfiguration),
            // Spec 6.1: the inputs are built before start, in the order configuration, token, account (steps 0a-0c), then the clock.
            Case(name: "now is NaN and lifetime 29: the lifetime first (step 0a before step 1)", now: .nan, lifetime: 29,
                 expected: .invalidConfiguration),
            Case(name: "lifetime 601 and a rendezvous of 33 bytes: the lifetime first (step 0a before 0b)", lifetime: 601,
                 rendezvousLength: 33, expected: .invalidConfiguration),
            Case(name: "rendezvous of 33 bytes and port 0: the token first (step 0b before 0c)", rendezvousLength: 33, port: 0,
                 expected: .rendezvousTooLong(33)),
            Case(name: "lifetime 29 and port 0: the lifetime first (step 0a before 0c)", lifetime: 29, port: 0,
                 expected: .invalidConfiguration),
            Case(name: "rendezvous of 33 bytes and now is NaN: the token first (step 0b before step 1)", now: .nan,
                 rendezvousLength: 33, expected: .rendezvousTooLong(33)),
            Case(name: "port 0 and now is NaN: the account first (step 0c before step 1)", now: .nan, port: 0,
                 expected: .malformed(.imapPort)),
            Case(name: "rendezvous of 0 bytes", rendezvousLength: 0, expected: nil),
            Case(name: "rendezvous of 32 bytes (the longest)", rendezvousLength: 32, expected: nil),
            Case(name: "rendezvous of 33 bytes cannot be built", rendezvousLength: 33, expected: .rendezvousTooLong(33)),
            Case(name: "account with port 0 cannot be built", port: 0, expected: .malformed(.imapPort)),
            Case(name: "account with U+202E in the display name cannot be built", displayName: "Ada \u{202E}", expected: .malformed(.displayName)),
        ]
        return try cases.map(entry)
    }

    private static func entry(_ item: Case) throws -> JSONValue {
        let seed = VectorSupport.seed("start/" + item.name)
        let linkID = VectorSupport.bytes(seed: VectorSupport.seed("start/link/" + item.name), count: 16)
        let rendezvous = VectorSupport.bytes(seed: VectorSupport.seed("start/rendezvous/" + item.name), count: item.rendezvousLength)
        var result = "ok"
        var fields: [String: JSONValue] = [:]
        do {
            let configuration = try SenderConfiguration(lifetime: item.lifetime)
            let token = try RendezvousToken(bytes: rendezvous)
            let account = try AccountMetadata(linkID: AccountLinkID(bytes: linkID)!, displayName: item.displayName,
                                              emailAddress: "ada@example.org", username: "ada", imapHost: "imap.example.org",
                                              imapPort: item.port, imapSecurity: .tls)
            let sender = try HandoffSender.start(account: account, rendezvous: token, configuration: configuration,
                                                 random: InsecureDeterministicRandom(seed: seed), now: VectorSupport.date(item.now))
            let payload = sender.payload
            let (nonce, privateKey) = VectorSupport.senderDraws(seed: seed)
            guard payload.expiry == UInt32(item.now.rounded(.down)) + item.lifetime,
                  VectorPrimitives.commitment(nonce: nonce) == payload.commitment,
                  try VectorPrimitives.x25519PublicKey(privateKey: privateKey) == payload.senderPublicKey.bytes,
                  sender.phase == .awaitingHello, sender.nextDeadline == payload.expiryDate else {
                throw VectorGenerationError("start \(item.name): QR differs from Spec 6.1")
            }
            fields = ["expiry": .number(payload.expiry), "transferID": .hex(payload.transferID.bytes), "text": .string(payload.text)]
        } catch let error as HandoffError {
            result = error.identifier
        }
        let meant = item.expected?.identifier ?? "ok"
        guard meant == result else { throw VectorGenerationError("start \(item.name): got \(result), meant \(meant)") }
        return .object(fields.merging([
            "name": .string(item.name), "now": .time(item.now), "lifetime": .number(item.lifetime), "seed": .number(seed),
            "rendezvous": .hex(rendezvous),
            "account": VectorSupport.accountFields(linkID: linkID, displayName: item.displayName, email: "ada@example.org",
                                                   username: "ada", host: "imap.example.org", port: item.port, security: .tls),
            "result": .string(result),
        ]) { $1 })
    }
}
