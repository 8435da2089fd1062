import AccountHandoff
import AccountHandoffTestSupport

/// Whole typed-way sessions (Spec 6.8, 12, 3.8, 4.5): the sending device shows a typed code
/// beside its QR; a receiving device whose person typed it runs CPace over a connection that
/// came by the local network or a relay. Pairing on each route, a failed confirmation at each
/// end, a lost connection after the reply, replays, the guess limit with the QR still working,
/// the QR pairing first, a run timing out, the run limit and bad shares at each end.
extension SessionScenarios {
    static let bothRoutes: Set<TypedRoute> = [.localNetwork, .relay]

    static var typedWay: [Scenario] {
        typedPairings + typedConfirmationFailures + typedLimits + typedReceiverEvents + typedShares
    }

    // MARK: Building blocks

    /// `digits` as the screen shows them (Spec 12.4 `grouped`), what a person types.
    static func grouped(_ digits: String) -> String {
        let characters = Array(digits)
        return String(characters[0..<3]) + " " + String(characters[3..<7]) + " " + String(characters[7..<11])
    }

    /// A valid code with the nameplate of `digits` and another secret (its check digit right):
    /// what a person who guesses, or mistypes in a way the check digit cannot catch, enters.
    static func otherCode(_ digits: String, _ offset: Int = 1) -> String {
        let secret = String((Int(digits.dropFirst(3).prefix(7))! + offset) % 10_000_000)
        let ten = String(digits.prefix(3)) + String(repeating: "0", count: 7 - secret.count) + secret
        return ten + String(DammCheckDigit.interim(ten))
    }

    /// `party` types `typed` and the sender starts a run for its connection; the `pakeInit`
    /// reaches it and its `pakeReply` leaves (not yet delivered).
    static func typedRun(_ r: SessionRecorder, _ party: String = "receiver", typing typed: String, route: TypedRoute = .localNetwork,
                         at time: Double, registry: String? = nil) throws {
        try r.startTyped(party, typing: typed, route: route, at: time, registry: registry)
        try r.sender(.typedRunRequested(route), at: time + 1)
        try r.deliver(from: "sender", to: party, at: time + 2)
    }

    /// The receiver types the shown code, both confirm, and the offer reaches the receiver
    /// (`t0 + 5` ... `t0 + 9`).
    static func typedPairing(_ r: SessionRecorder, route: TypedRoute = .localNetwork) throws {
        try typedRun(r, typing: grouped(try r.typedCode()), route: route, at: t0 + 5)
        try r.deliver(from: "receiver", to: "sender", at: t0 + 8)
        try r.deliverStep(from: "sender", to: "receiver", at: t0 + 9)
    }

    /// After the pairing: the receiving person accepts, the password travels and is imported.
    static func typedImport(_ r: SessionRecorder) throws {
        try r.receiver(.accept, at: t0 + 30)
        try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
        try r.sender(.credential(password), at: t0 + 40)
        try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
        try r.receiver(.importFinished(.imported), at: t0 + 50)
        try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
    }

    // MARK: Pairing

    static var typedPairings: [Scenario] {
        [
            Scenario("typed-happy-imported", "The typed way over the local network: the receiving person types the code shown beside the QR; CPace pairs (pakeInit, pakeReply, pakeConfirm), the offer follows at once, and the account is imported. The sender's person types no code.", typedRoutes: bothRoutes) { r in
                try typedPairing(r)
                try typedImport(r)
            },
            Scenario("typed-happy-relay-imported", "The typed way through a relay (route 02 in CI): paired and imported.", typedRoutes: bothRoutes) { r in
                try typedPairing(r, route: .relay)
                try typedImport(r)
            },
            Scenario("typed-declined", "Paired by the typed way, the receiving person declines the offered account: abort(2), rejected at both ends; no password left. The finished sender then refuses a typed run (invalidEvent) and takes a taken name as nothing.", typedRoutes: bothRoutes) { r in
                try typedPairing(r)
                try r.receiver(.reject, at: t0 + 30)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
                try r.sender(.typedRunRequested(.localNetwork), at: t0 + 32, note: "finished: refused with invalidEvent (Spec 6.0 step 2)")
                try r.sender(.typedNameTaken, at: t0 + 32, note: "finished: [] (Spec 6.0 step 2)")
            },
            Scenario("typed-replayed", "A typed session's recorded frames replayed: the pakeReply again to its sender (replayed) and the pakeInit again to its receiver (replayed); another device that typed the same code answers the recorded pakeInit and ends typedCodeMismatch at the recorded pakeConfirm (its TH1 differs); a fresh sending session ignores the recorded pakeReply (unknownTransfer).", typedRoutes: bothRoutes) { r in
                try typedPairing(r)
                let run = r.typedRun(0)
                let pair = r.typedHandshakes[0]
                try r.feed(pair.pakeReply, to: "sender", at: t0 + 20)
                try r.feed(run.pakeInit, to: "receiver", at: t0 + 21)
                try r.startTyped("receiver-again", typing: grouped(run.code), route: .localNetwork, at: t0 + 22)
                try r.feed(run.pakeInit, to: "receiver-again", at: t0 + 23)
                try r.feed(pair.pakeConfirm!, to: "receiver-again", at: t0 + 24)
                try r.addSender("sender-again", typedRoutes: bothRoutes)
                try r.feed(pair.pakeReply, to: "sender-again", at: t0 + 25)
            },
        ]
    }

    // MARK: A failed confirmation at each end, and a lost connection

    static var typedConfirmationFailures: [Scenario] {
        [
            Scenario("typed-wrong-code", "The receiving person types a valid code with the right nameplate and a wrong secret: the sender's confirmation of tagR fails; it answers pakeRefused, retires the code and shows a new one (typedCodeRetired, 1 wrong guess); the receiver ends typedCodeMismatch. Another device types the new code and pairs.", typedRoutes: bothRoutes) { r in
                try typedRun(r, typing: grouped(otherCode(try r.typedCode())), at: t0 + 5)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 8)
                try r.deliverReply(from: "sender", to: "receiver", at: t0 + 9)
                try typedRun(r, "receiver-2", typing: grouped(try r.typedCode()), at: t0 + 20)
                try r.deliver(from: "receiver-2", to: "sender", at: t0 + 23)
                try r.deliverStep(from: "sender", to: "receiver-2", at: t0 + 24)
            },
            Scenario("typed-wrong-sender-tag", "The receiver's confirmation fails: the pakeConfirm that reaches it carries a wrong tagS (one byte changed on the way): failed.typedCodeMismatch, and the offer behind it is ignored. Before it, the same pakeConfirm with sequence 2 is ignored (malformed.sequence).", typedRoutes: bothRoutes) { r in
                try typedRun(r, typing: grouped(try r.typedCode()), at: t0 + 5)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 8)
                let confirm = r.typedHandshakes[0].pakeConfirm!
                try r.inject(VectorPrimitives.frameBytes(type: .pakeConfirm, transferID: r.typedRun(0).transferID, sequence: 2,
                                                         body: Array(confirm.dropFirst(24))),
                             origin: "frame \(r.frameID(confirm)) with sequence 2", to: "receiver", at: t0 + 9)
                try r.inject(VectorSupport.flip(confirm, at: 40), origin: "frame \(r.frameID(confirm)) with byte 40 xor 0x01", to: "receiver",
                             at: t0 + 9)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 10)
            },
            Scenario("typed-closed-after-reply", "The connection closes after the receiver's pakeReply left: the receiver ends typedCodeUnconfirmed and its code is used up (the same device cannot start it again: typedCodeAlreadyUsed); the sender drops the run (typedRunEnded) without counting a guess and keeps its code.", typedRoutes: bothRoutes) { r in
                let code = try r.typedCode()
                try typedRun(r, typing: grouped(code), at: t0 + 5, registry: "device")
                try r.receiver(.transportLost, at: t0 + 8)
                try r.sender(.typedRunEnded(r.typedRun(0).sid), at: t0 + 8)
                try r.startTyped("receiver-again", typing: grouped(code), route: .localNetwork, at: t0 + 9, registry: "device")
            },
        ]
    }

    // MARK: Limits: guesses, the QR first, the run deadline, pending runs

    static var typedLimits: [Scenario] {
        [
            Scenario("typed-three-wrong-guesses", "Three devices each type a wrong code of the current nameplate: the first two retire the code (typedCodeRetired 1, 2), the third withdraws the typed way (typedWayWithdrawn wrongGuesses); a further run is refused (invalidEvent), typedRunEnded and typedNameTaken change nothing, and the QR still pairs.", typedRoutes: bothRoutes) { r in
                for guess in 1...3 {
                    let party = "guesser-\(guess)"
                    let time = t0 + Double(guess * 5)
                    try typedRun(r, party, typing: grouped(otherCode(try r.typedCode(), guess)), at: time)
                    try r.deliver(from: party, to: "sender", at: time + 3)
                }
                try r.sender(.typedRunRequested(.localNetwork), at: t0 + 30)
                try r.sender(.typedRunEnded(r.typedRun(0).sid), at: t0 + 30)
                try r.sender(.typedNameTaken, at: t0 + 30)
                try r.scan(at: t0 + 31)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 32)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 33)
                try r.sender(.accept, at: t0 + 40)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
            },
            Scenario("typed-qr-first", "A typed run is pending (its pakeReply on the way) when a device that scanned the QR pairs first: the sender reveals, asks for the code and withdraws the typed way (pairedByQR); the late pakeReply is ignored.", typedRoutes: bothRoutes) { r in
                try typedRun(r, "typist", typing: grouped(try r.typedCode()), at: t0 + 5)
                try r.scan(at: t0 + 8)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 9)
                try r.deliver(from: "typist", to: "sender", at: t0 + 10)
                try r.deliver(from: "sender", to: "receiver", at: t0 + 11)
            },
            Scenario("typed-run-timeout", "A run whose pakeReply arrives 10 s after the run started was dropped: ignored (unknownTransfer), no guess. A second run answered 9.5 s after it started pairs with the same code.", typedRoutes: bothRoutes) { r in
                let code = grouped(try r.typedCode())
                try typedRun(r, typing: code, at: t0 + 5)
                try r.deliver(from: "receiver", to: "sender", at: t0 + 16)
                try typedRun(r, "receiver-2", typing: code, at: t0 + 20)
                try r.deliver(from: "receiver-2", to: "sender", at: t0 + 30.5)
            },
            Scenario("typed-runs-busy", "Eight runs pending: a ninth is refused (typedRunsBusy) and draws nothing; once one connection closes (typedRunEnded) the ninth starts. The nameplate's name is then taken on the local network (typedNameTaken): every run is dropped and a new code shown (typedCodeReplaced); a run starts with it.", typedRoutes: bothRoutes) { r in
                for index in 0..<8 {
                    try r.sender(.typedRunRequested(index % 2 == 0 ? .localNetwork : .relay), at: t0 + 5)
                }
                try r.sender(.typedRunRequested(.localNetwork), at: t0 + 5)
                try r.sender(.typedRunEnded(r.typedRun(3).sid), at: t0 + 6)
                try r.sender(.typedRunRequested(.localNetwork), at: t0 + 6)
                try r.sender(.typedNameTaken, at: t0 + 7, note: "every run wiped, a new code, no guess")
                try r.sender(.typedRunRequested(.relay), at: t0 + 7)
            },
        ]
    }

    // MARK: The receiver's local events before the confirmation

    static var typedReceiverEvents: [Scenario] {
        [
            Scenario("typed-receiver-local-events", "A typed receiver's local events (Spec 6.8): awaiting its pakeInit it ignores a frame of another type, takes tick as nothing, refuses accept (invalidEvent) and ends cancelled.local on cancel, failed.transportLost on a lost connection (code not used up) and expired at floor(start) + 600 + skew; awaiting the confirmation it ignores another pakeInit (unexpectedMessage), takes tick as nothing, refuses reject and ends cancelled.local on cancel, without a frame.", typedRoutes: bothRoutes) { r in
                let code = grouped(try r.typedCode())
                try r.startTyped(typing: code, route: .localNetwork, at: t0 + 5)
                let stray = VectorPrimitives.frameBytes(type: .pakeRefused, transferID: r.senders["sender"]!.payload.transferID, sequence: 1,
                                                        body: [])
                try r.inject(stray, origin: "a pakeRefused before any pakeInit", to: "receiver", at: t0 + 6)
                try r.receiver(.tick, at: t0 + 6)
                try r.receiver(.accept, at: t0 + 6)
                try r.receiver(.cancel, at: t0 + 7)
                try r.startTyped("receiver-2", typing: code, route: .localNetwork, at: t0 + 8)
                try r.receiver(.transportLost, at: t0 + 9, party: "receiver-2")
                try r.startTyped("receiver-3", typing: code, route: .relay, at: t0 + 10.5)
                try r.receiver(.tick, at: t0 + 639.75, party: "receiver-3", note: "before floor(start) + 600 + skew")
                try r.receiver(.tick, at: t0 + 640, party: "receiver-3", note: "floor(start) + 600 + skew: expired")
                try typedRun(r, "receiver-4", typing: code, at: t0 + 20)
                try r.feed(r.typedRun(0).pakeInit, to: "receiver-4", at: t0 + 23)
                try r.receiver(.tick, at: t0 + 23, party: "receiver-4")
                try r.receiver(.reject, at: t0 + 23, party: "receiver-4")
                try r.receiver(.cancel, at: t0 + 24, party: "receiver-4")
            },
        ]
    }

    // MARK: Bad shares at each end

    static var typedShares: [Scenario] {
        [
            Scenario("typed-bad-reply-shares", "pakeReply frames for a pending run whose Yb is the identity, or not an element (the draft's Invalid Y1), or whose sequence is 1, are ignored (invalidPakeShare, malformed.sequence) without a guess; the run stays, and the honest reply pairs.", typedRoutes: bothRoutes) { r in
                try typedRun(r, typing: grouped(try r.typedCode()), at: t0 + 5)
                let run = r.typedRun(0)
                let tag = Array(r.typedHandshakes[0].tagR)
                let transferID = r.senders["sender"]!.payload.transferID
                for (origin, share, sequence) in [("pakeReply of run 0 with Yb the identity", [UInt8](repeating: 0, count: 32), UInt32(0)),
                                                  ("pakeReply of run 0 with Yb not an element (the draft's Invalid Y1)", invalidY1, 0),
                                                  ("pakeReply of run 0 with sequence 1", r.typedHandshakes[0].share, 1)] {
                    try r.inject(VectorPrimitives.frameBytes(type: .pakeReply, transferID: transferID, sequence: sequence, body: run.sid + share + tag),
                                 origin: origin, to: "sender", at: t0 + 8)
                }
                try r.deliver(from: "receiver", to: "sender", at: t0 + 8)
                try r.deliverStep(from: "sender", to: "receiver", at: t0 + 9)
            },
            Scenario("typed-bad-init-shares", "pakeInit frames whose Ya is the identity, or not an element, end the receiver failed.invalidPakeShare without a frame. The order of Spec 6.8: a Ya that does not decode is refused before the code is claimed (the same device can start the code again); the identity decodes, so the code is claimed before CPace refuses the identity K (typedCodeAlreadyUsed after it). A pakeInit of sequence 1 is ignored.", typedRoutes: bothRoutes) { r in
                let code = grouped(try r.typedCode())
                let sender = r.senders["sender"]!.payload
                func pakeInit(_ share: [UInt8], sequence: UInt32 = 0) -> [UInt8] {
                    VectorPrimitives.frameBytes(type: .pakeInit, transferID: sender.transferID, sequence: sequence,
                                                body: VectorSupport.bigEndian(sender.expiry) + [UInt8](repeating: 0x5a, count: 16) + share)
                }
                try r.startTyped(typing: code, route: .localNetwork, at: t0 + 5, registry: "device")
                try r.inject(pakeInit(invalidY1, sequence: 1), origin: "pakeInit with sequence 1", to: "receiver", at: t0 + 6)
                try r.inject(pakeInit([UInt8](repeating: 0, count: 32)), origin: "pakeInit with Ya the identity", to: "receiver", at: t0 + 6)
                try r.startTyped("receiver-again", typing: code, route: .localNetwork, at: t0 + 7, registry: "device")
                try r.startTyped("other-device", typing: code, route: .localNetwork, at: t0 + 8, registry: "other device")
                try r.inject(pakeInit(invalidY1), origin: "pakeInit with Ya not an element (the draft's Invalid Y1)", to: "other-device", at: t0 + 9)
                try r.startTyped("other-device-again", typing: code, route: .localNetwork, at: t0 + 10, registry: "other device")
            },
        ]
    }

    /// The draft's `Invalid Y1` of `G_Coffee25519_points`: 32 bytes that are not an element.
    static let invalidY1 = VectorSupport.hex("2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c")
}
