import AccountHandoff
import AccountHandoffTestSupport
import AccountHandoffTransport

/// `typed-code.json`: the typed mode's pieces that need no session (Spec 12): the Damm table
/// and check digits, codes drawn from seeds and from scripted bytes with every form, typed
/// entries accepted and refused with their exact errors, `CI` encodings, CPace scalars and runs
/// of this protocol's construction, and the relay token and sender side of nameplates.
enum TypedCodeVectors {
    static func make() throws -> JSONValue {
        .object([
            "description": .string("Typed code and CPace (Spec 12): the Damm table (12.2) and check digits; codes drawn (12.3) from a seed (SplitMix64, one request per draw) or from a script (the byte blocks handed out in order, one whole block per request), with the value of every draw, the parts and every form (12.4); typed entries with what they give or the error that refuses them (12.5); CI encodings (12.7); CPace scalars from 64 drawn bytes (12.6); CPace runs of the typed mode's construction, sender = initiator, with every intermediate value or the error; relay tokens and sender sides of nameplates (12.8)."),
            "dammTable": .array(stride(from: 0, to: 100, by: 10).map { row in
                .array(DammCheckDigit.table[row..<(row + 10)].map { .number($0) })
            }),
            "checkDigits": .array(try checkDigits()),
            "codes": .array(try codes()),
            "entries": .array(try entries()),
            "channelIdentifiers": .array(try channelIdentifiers()),
            "scalars": .array(try scalars()),
            "runs": .array(try runs()),
            "relay": .array(try relay()),
        ])
    }

    // MARK: Check digits (12.2)

    private static func checkDigits() throws -> [JSONValue] {
        let cases: [(String, String)] = [
            ("Wikipedia's example 572", "572"), ("the worked example's ten digits", "4278150936"),
            ("ten zeros", "0000000000"), ("ten nines", "9999999999"), ("0123456789", "0123456789"),
            ("a full code checks to 0", "42781509366"),
        ] + (1...4).map { index in
            let digits = VectorSupport.bytes(seed: VectorSupport.seed("typed/check \(index)"), count: 10).map { Character(String($0 % 10)) }
            return ("seeded ten digits \(index)", String(digits))
        }
        return try cases.map { name, digits in
            let interim = DammCheckDigit.interim(digits)
            guard name != "a full code checks to 0" || interim == 0, name != "Wikipedia's example 572" || interim == 4 else {
                throw VectorGenerationError("check digit \(name)")
            }
            return .object(["name": .string(name), "digits": .string(digits), "interim": .number(interim)])
        }
    }

    // MARK: Codes (12.3, 12.4)

    /// A seeded source that also records every block it hands out.
    private final class RecordingRandom: RandomSource {
        private let source: InsecureDeterministicRandom
        private(set) var blocks: [[UInt8]] = []
        init(seed: UInt64) { source = InsecureDeterministicRandom(seed: seed) }
        func fill(_ buffer: UnsafeMutableRawBufferPointer) {
            source.fill(buffer)
            blocks.append(Array(buffer))
        }
    }

    /// The first seed of `typed/code search N` whose draw has the asked property (found by
    /// search; the generator checks it still has it).
    static let firstRejectedNameplateSearch = 19
    static let firstRejectedSecretSearch = 184

    private static func codes() throws -> [JSONValue] {
        var entries: [JSONValue] = []
        let seeded: [(String, UInt64, (([[UInt8]]) -> Bool)?)] = (1...6).map { ("seeded code \($0)", VectorSupport.seed("typed/code \($0)"), nil) }
            + [("seeded, first nameplate draw rejected", VectorSupport.seed("typed/code search \(firstRejectedNameplateSearch)"),
                { $0.count == 3 && $0[0].count == 2 && $0[1].count == 2 }),
               ("seeded, first secret draw rejected", VectorSupport.seed("typed/code search \(firstRejectedSecretSearch)"),
                { $0.count == 3 && $0[0].count == 2 && $0[1].count == 4 && $0[2].count == 4 })]
        for (name, seed, property) in seeded {
            let random = RecordingRandom(seed: seed)
            let code = try TypedCode.draw(from: random)
            if let property, !property(random.blocks) { throw VectorGenerationError("\(name): the draws are \(random.blocks)") }
            var entry = try codeEntry(name, code: code, blocks: random.blocks)
            entry["seed"] = .number(seed)
            entries.append(.object(entry))
        }
        let scripted: [(String, [[UInt8]], [UInt8]?)] = [
            ("worked example 427 8150 9366, both first draws rejected at the bounds",
             [[0xfa, 0x00], [0x01, 0xab], [0xff, 0xb4, 0x34, 0x80], [0x00, 0x7c, 0x5f, 0x98]], nil),
            ("largest accepted draws: 63999 and 4289999999", [[0xf9, 0xff], [0xff, 0xb4, 0x34, 0x7f]], nil),
            ("leading zeros: 1000 and 10000042", [[0x03, 0xe8], [0x00, 0x98, 0x96, 0xaa]], nil),
            ("zero draws: 0 and 0", [[0x00, 0x00], [0x00, 0x00, 0x00, 0x00]], nil),
            ("64 rejected nameplate draws", [], [0xff, 0xff]),
            ("64 rejected secret draws", [[0x00, 0x01]], [0xff, 0xff, 0xff, 0xff]),
        ]
        for (name, blocks, repeating) in scripted {
            let random = ScriptedRandom(blocks, thenRepeating: repeating)
            var handedOut = blocks
            do {
                let code = try TypedCode.draw(from: random)
                // Every scripted block is used: the draws the name calls rejected were rejected.
                guard random.requestedCounts == blocks.map(\.count) else { throw VectorGenerationError("\(name): drew \(random.requestedCounts)") }
                var entry = try codeEntry(name, code: code, blocks: blocks)
                entry["script"] = .array(blocks.map { .hex($0) })
                entries.append(.object(entry))
            } catch let error as HandoffError {
                guard error == .keyDerivationFailed, let repeating else { throw VectorGenerationError("\(name): \(error.identifier)") }
                handedOut += Array(repeating: repeating, count: random.requestedCounts.count - blocks.count)
                guard random.requestedCounts.count == blocks.count + TypedCode.maximumDraws else { throw VectorGenerationError("\(name) draws") }
                entries.append(.object(["name": .string(name), "script": .array(handedOut.map { .hex($0) }),
                                        "error": .string(error.identifier)]))
            }
        }
        return entries
    }

    /// The JSON of a drawn code: each draw's value, the parts, the check digit and the forms.
    private static func codeEntry(_ name: String, code: TypedCode, blocks: [[UInt8]]) throws -> [String: JSONValue] {
        let values = blocks.map { $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        let nameplateDraws = zip(blocks, values).filter { $0.0.count == 2 }.map(\.1)
        let secretDraws = zip(blocks, values).filter { $0.0.count == 4 }.map(\.1)
        let digits = code.digits
        let secretDigits = String(digits.dropFirst(TypedCode.nameplateDigitCount).prefix(TypedCode.secretDigitCount))
        guard let nameplate = nameplateDraws.last, nameplate < 64_000, nameplate % 1000 == UInt64(code.nameplate.value),
              let secret = secretDraws.last, secret < 4_290_000_000, UInt64(secretDigits) == secret % 10_000_000,
              DammCheckDigit.interim(digits) == 0, try TypedCode(entry: code.grouped).matches(code) else {
            throw VectorGenerationError("code \(name) inconsistent")
        }
        defer { code.wipe() }
        return ["name": .string(name), "nameplateDraws": .array(nameplateDraws.map { .number($0) }),
                "secretDraws": .array(secretDraws.map { .number($0) }), "nameplate": .string(code.nameplate.digits),
                "secret": .string(secretDigits), "checkDigit": .number(code.checkDigit),
                "digits": .string(digits), "grouped": .string(code.grouped), "spoken": .string(code.spoken)]
    }

    // MARK: Entries (12.5)

    private static func entries() throws -> [JSONValue] {
        let cases: [(String, String)] = [
            ("the 11 digits", "42781509366"), ("grouped as shown", "427 8150 9366"), ("hyphens", "427-8150-9366"),
            ("spaces around", "  427 8150 9366 "), ("separators mixed and doubled", "4-2-7  8150--9366"),
            ("empty", ""), ("only separators", " - -"), ("too short: 10 digits", "427 8150 936"),
            ("too long: 12 digits", "427 8150 93660"), ("too short: 7 digits", "427 8150"), ("five digits", "48291"),
            ("letters", "four two seven"), ("letter O for zero", "427 815O 9366"), ("a tab", "427\t8150 9366"),
            ("no-break spaces", "427\u{00A0}8150\u{00A0}9366"), ("full-width digits", "４２７８１５０９３６６"),
            ("underscores", "427_8150_9366"), ("dots", "427.8150.9366"), ("a newline at the end", "42781509366\n"),
            ("a transfer code", "AH:12345678901"), ("six digits: the QR mode's short code", "482913"),
            ("six digits grouped", "482 913"), ("six digits with a hyphen", "482-913"), ("six characters, one a letter", "48291a"),
            ("a single wrong digit: the check digit", "427 8150 9367"), ("a single wrong digit: in the nameplate", "428 8150 9366"),
            ("a single wrong digit: in the secret", "427 8150 8366"), ("a swap of neighbours in the nameplate", "472 8150 9366"),
            ("a swap of neighbours in the secret", "427 1850 9366"), ("a swap of neighbours across groups", "428 7150 9366"),
            ("a swap with the check digit", "427 8150 9636"),
        ]
        return try cases.map { name, typed in
            var entry: [String: JSONValue] = ["name": .string(name), "typed": .string(typed)]
            do {
                let code = try TypedCode(entry: typed)
                entry["result"] = .string("ok")
                entry["digits"] = .string(code.digits)
                code.wipe()
            } catch let error as HandoffError {
                entry["result"] = .string(error.identifier)
            }
            return .object(entry)
        }
    }

    // MARK: CI (12.7)

    private static func channelIdentifiers() throws -> [JSONValue] {
        let cases: [(String, UInt16, UInt32, TypedRoute)] = [
            ("local network", 427, 1_800_000_180, .localNetwork),
            ("relay", 42, 1_800_000_180, .relay),
            ("relay, nameplate 999", 999, 1_800_000_600, .relay),
            ("expiry 0, nameplate 000", 0, 0, .localNetwork),
            ("expiry 2^32 - 1", 1, UInt32.max, .relay),
        ]
        return cases.map { name, nameplate, expiry, route in
            let transferID = TransferID(bytes: VectorSupport.bytes(seed: VectorSupport.seed("typed/ci/" + name), count: 16))!
            let ci = TypedChannelIdentifier.encode(nameplate: TypedCode.Nameplate(value: nameplate)!, expiry: expiry, route: route,
                                                   transferID: transferID)
            return .object(["name": .string(name), "nameplate": .string(TypedCode.Nameplate(value: nameplate)!.digits),
                            "expiry": .number(expiry), "route": routeJSON(route), "transferID": .hex(transferID.bytes), "ci": .hex(ci)])
        }
    }

    static func routeJSON(_ route: TypedRoute) -> JSONValue { .string(route.description) }

    // MARK: Scalars (12.6)

    static let groupOrderLittleEndian: [UInt8] = VectorSupport.hex("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")

    private static func scalars() throws -> [JSONValue] {
        let order = groupOrderLittleEndian + [UInt8](repeating: 0, count: 32)
        let cases: [(String, [[UInt8]], [UInt8]?)] = [
            ("seeded draw 1", [VectorSupport.bytes(seed: VectorSupport.seed("typed/scalar 1"), count: 64)], nil),
            ("seeded draw 2", [VectorSupport.bytes(seed: VectorSupport.seed("typed/scalar 2"), count: 64)], nil),
            ("all ones: (2^512 - 1) mod the order", [[UInt8](repeating: 0xff, count: 64)], nil),
            ("the group order reduces to zero: drawn again", [order, [1] + [UInt8](repeating: 0, count: 63)], nil),
            ("order + 5 reduces to 5", [VectorSupport.patched(order, 0, 0xf2)], nil),
            ("64 zero draws", [], [UInt8](repeating: 0, count: 64)),
        ]
        return try cases.map { name, blocks, repeating in
            let random = ScriptedRandom(blocks, thenRepeating: repeating)
            var entry: [String: JSONValue] = ["name": .string(name)]
            do {
                entry["scalar"] = .hex(try VectorPrimitives.cpaceSampleScalar(from: random))
                entry["draws"] = .array(blocks.map { .hex($0) })
            } catch let error as HandoffError {
                guard error == .keyDerivationFailed, let repeating, random.requestedCounts.count == 64 else {
                    throw VectorGenerationError("scalar \(name): \(error.identifier)")
                }
                entry["draws"] = .array(Array(repeating: .hex(repeating), count: random.requestedCounts.count))
                entry["error"] = .string(error.identifier)
            }
            return .object(entry)
        }
    }

    // MARK: Runs (12.6, 12.7)

    private struct RunCase {
        let name: String
        let senderCode: String
        let receiverCode: String
        let senderRoute: TypedRoute
        let receiverRoute: TypedRoute
        var forgedReceiverShare: [UInt8]? = nil
    }

    private static func runs() throws -> [JSONValue] {
        let code = try TypedCode.draw(from: InsecureDeterministicRandom(seed: VectorSupport.seed("typed/run code")))
        defer { code.wipe() }
        let digits = code.digits
        let otherSecret = String(digits.prefix(3)) + (digits.dropFirst(3).prefix(7) == "0000000" ? "0000001" : "0000000")
        let other = otherSecret + String(DammCheckDigit.interim(otherSecret))
        let relay = TypedRoute.relay
        var cases = [RunCase(name: "local network, the right code", senderCode: digits, receiverCode: digits, senderRoute: .localNetwork,
                             receiverRoute: .localNetwork),
                     RunCase(name: "relay, the right code", senderCode: digits, receiverCode: digits, senderRoute: relay, receiverRoute: relay)]
        cases.append(RunCase(name: "the receiver typed another valid code with the same nameplate", senderCode: digits,
                             receiverCode: other, senderRoute: .localNetwork, receiverRoute: .localNetwork))
        cases.append(RunCase(name: "the sender's connection came through the relay, the receiver's over the local network",
                             senderCode: digits, receiverCode: digits, senderRoute: relay, receiverRoute: .localNetwork))
        cases.append(RunCase(name: "Yb is the identity", senderCode: digits, receiverCode: digits, senderRoute: .localNetwork,
                             receiverRoute: .localNetwork, forgedReceiverShare: [UInt8](repeating: 0, count: 32)))
        cases.append(RunCase(name: "Yb is not an element (the draft's Invalid Y1)", senderCode: digits, receiverCode: digits,
                             senderRoute: .localNetwork, receiverRoute: .localNetwork,
                             forgedReceiverShare: VectorSupport.hex("2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c")))
        return try cases.map(run)
    }

    private static func run(_ run: RunCase) throws -> JSONValue {
        let seed = VectorSupport.seed("typed/run/" + run.name)
        let transferID = TransferID(bytes: VectorSupport.bytes(seed: seed, count: 16))!
        let sid = VectorSupport.bytes(seed: seed &+ 1, count: 16)
        let senderDraw = VectorSupport.bytes(seed: seed &+ 2, count: 64)
        let receiverDraw = VectorSupport.bytes(seed: seed &+ 3, count: 64)
        let expiry: UInt32 = 1_800_000_180
        let senderCode = try TypedCode(entry: run.senderCode), receiverCode = try TypedCode(entry: run.receiverCode)
        defer { senderCode.wipe(); receiverCode.wipe() }
        let senderCI = TypedChannelIdentifier.encode(nameplate: senderCode.nameplate, expiry: expiry, route: run.senderRoute,
                                                         transferID: transferID)
        let receiverCI = TypedChannelIdentifier.encode(nameplate: receiverCode.nameplate, expiry: expiry, route: run.receiverRoute,
                                                           transferID: transferID)
        let senderPassword = try senderCode.password(), receiverPassword = try receiverCode.password()
        defer { senderPassword.wipe(); receiverPassword.wipe() }
        let sender = try CPaceRun(role: .initiator, password: senderPassword, channelIdentifier: senderCI, sessionID: sid,
                                  random: ScriptedRandom([senderDraw]))
        let receiver = try CPaceRun(role: .responder, password: receiverPassword, channelIdentifier: receiverCI, sessionID: sid,
                                    random: ScriptedRandom([receiverDraw]))
        let ya = try VectorPrimitives.cpaceSampleScalar(from: ScriptedRandom([senderDraw]))
        let yb = try VectorPrimitives.cpaceSampleScalar(from: ScriptedRandom([receiverDraw]))
        let senderGenerator = try VectorPrimitives.cpaceGenerator(password: senderPassword.revealedBytes(), channelIdentifier: senderCI,
                                                                  sessionID: sid)
        let receiverGenerator = try VectorPrimitives.cpaceGenerator(password: receiverPassword.revealedBytes(),
                                                                    channelIdentifier: receiverCI, sessionID: sid)
        let sentYb = run.forgedReceiverShare ?? receiver.ownShare.bytes
        guard try VectorPrimitives.cpaceScalarMult(scalar: ya, element: senderGenerator) == sender.ownShare.bytes,
              try VectorPrimitives.cpaceScalarMult(scalar: yb, element: receiverGenerator) == receiver.ownShare.bytes else {
            throw VectorGenerationError("run \(run.name): shares")
        }
        var entry: [String: JSONValue] = [
            "name": .string(run.name), "senderCode": .string(run.senderCode), "receiverCode": .string(run.receiverCode),
            "expiry": .number(expiry), "transferID": .hex(transferID.bytes), "senderRoute": routeJSON(run.senderRoute),
            "receiverRoute": routeJSON(run.receiverRoute), "senderCI": .hex(senderCI), "receiverCI": .hex(receiverCI), "sid": .hex(sid),
            "senderDraw": .hex(senderDraw), "receiverDraw": .hex(receiverDraw), "ya": .hex(ya), "yb": .hex(yb),
            "senderGenerator": .hex(senderGenerator), "receiverGenerator": .hex(receiverGenerator), "Ya": .hex(sender.ownShare.bytes),
            "Yb": .hex(sentYb),
        ]
        let share = CPaceShare(bytes: sentYb)!
        do {
            let k = try VectorPrimitives.cpaceSharedPoint(scalar: ya, share: sentYb)
            let senderKey = try sender.intermediateSessionKey(peerShare: share)
            let receiverKey = try receiver.intermediateSessionKey(peerShare: sender.ownShare)
            defer { senderKey.wipe(); receiverKey.wipe() }
            let transcript = VectorPrimitives.cpaceInitiatorResponderTranscript(ya: sender.ownShare.bytes, ada: [], yb: sentYb, adb: [])!
            guard try VectorPrimitives.cpaceIntermediateSessionKey(sessionID: sid, k: k, transcript: transcript) == senderKey.revealedBytes(),
                  (senderKey.revealedBytes() == receiverKey.revealedBytes()) == (run.senderCode == run.receiverCode && senderCI == receiverCI) else {
                throw VectorGenerationError("run \(run.name): keys")
            }
            entry["K"] = .hex(k)
            entry["receiverK"] = .hex(try VectorPrimitives.cpaceSharedPoint(scalar: yb, share: sender.ownShare.bytes))
            entry["transcript"] = .hex(transcript)
            entry["senderISK"] = .hex(senderKey.revealedBytes())
            entry["receiverISK"] = .hex(receiverKey.revealedBytes())
            entry["keysMatch"] = .bool(senderKey.revealedBytes() == receiverKey.revealedBytes())
            for (key, value) in try keySchedule(transferID: transferID, expiry: expiry, sid: sid, ya: sender.ownShare.bytes, yb: sentYb,
                                                senderISK: senderKey.revealedBytes(), receiverISK: receiverKey.revealedBytes()) {
                entry[key] = value
            }
        } catch let error as HandoffError {
            guard error == .invalidPakeShare, run.forgedReceiverShare != nil, !sender.isWiped else {
                throw VectorGenerationError("run \(run.name): \(error.identifier)")
            }
            entry["senderError"] = .string(error.identifier)
        }
        sender.wipe()
        receiver.wipe()
        return .object(entry)
    }

    // MARK: The typed way's frames and keys (Spec 3.8, 4.5)

    /// The frames and keys of Spec 4.5 from both sides' `ISK`: the receiver's view derives
    /// `tagR`; the sender's checks it and answers `pakeConfirm` or `pakeRefused`.
    private static func keySchedule(transferID: TransferID, expiry: UInt32, sid: [UInt8], ya: [UInt8], yb: [UInt8],
                                    senderISK: [UInt8], receiverISK: [UInt8]) throws -> [(String, JSONValue)] {
        let pakeInit = TypedFrames.pakeInit(transferID: transferID, expiry: expiry, sessionID: sid, share: CPaceShare(bytes: ya)!)
        guard pakeInit == VectorPrimitives.frameBytes(type: .pakeInit, transferID: transferID, sequence: 0,
                                                      body: VectorSupport.bigEndian(expiry) + sid + ya) else {
            throw VectorGenerationError("pakeInit layout")
        }
        let th0t = VectorPrimitives.sha256([VectorSupport.ascii("AH4 typed transcript"), pakeInit])
        let hht = VectorPrimitives.sha256([th0t, yb])
        func keys(_ isk: [UInt8]) throws -> (prk: [UInt8], receiverConfirm: [UInt8], senderConfirm: [UInt8], s2r: [UInt8], r2s: [UInt8]) {
            let prk = VectorPrimitives.hkdfExtract(salt: hht, inputKeyMaterial: [isk])
            func expand(_ label: String) throws -> [UInt8] {
                try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: VectorSupport.ascii(label), length: 32)
            }
            return (prk, try expand("AH4 typed receiver confirm"), try expand("AH4 typed sender confirm"), try expand("AH4 typed s2r"),
                    try expand("AH4 typed r2s"))
        }
        let receiver = try keys(receiverISK), sender = try keys(senderISK)
        let tagR = VectorPrimitives.hmac(key: receiver.receiverConfirm, message: hht)
        let pakeReply = tagR.withUnsafeBytes {
            TypedFrames.pakeReply(transferID: transferID, sessionID: sid, share: CPaceShare(bytes: yb)!, tag: $0)
        }
        let th1 = VectorPrimitives.sha256([th0t, pakeReply])
        let accepted = VectorPrimitives.hmac(key: sender.receiverConfirm, message: hht) == tagR
        var out: [(String, JSONValue)] = [
            ("pakeInit", .hex(pakeInit)), ("th0t", .hex(th0t)), ("hht", .hex(hht)), ("receiverPRK", .hex(receiver.prk)),
            ("receiverConfirmKey", .hex(receiver.receiverConfirm)), ("senderConfirmKey", .hex(receiver.senderConfirm)),
            ("s2rKey", .hex(receiver.s2r)), ("r2sKey", .hex(receiver.r2s)), ("tagR", .hex(tagR)), ("pakeReply", .hex(pakeReply)),
            ("th1", .hex(th1)), ("senderPRK", .hex(sender.prk)), ("senderAcceptsTagR", .bool(accepted)),
        ]
        if accepted {
            let tagS = VectorPrimitives.hmac(key: sender.senderConfirm, message: th1)
            let pakeConfirm = tagS.withUnsafeBytes { TypedFrames.pakeConfirm(transferID: transferID, tag: $0) }
            out += [("tagS", .hex(tagS)), ("pakeConfirm", .hex(pakeConfirm)), ("th2", .hex(VectorPrimitives.sha256([th1, pakeConfirm])))]
        } else {
            out.append(("pakeRefused", .hex(TypedFrames.pakeRefused(transferID: transferID))))
        }
        return out
    }

    // MARK: Relay (12.8)

    private static func relay() throws -> [JSONValue] {
        try [0, 42, 427, 999].map { value in
            let nameplate = TypedCode.Nameplate(value: UInt16(value))!
            let keys = try TypedRelayKeys(nameplate: nameplate)
            let ikm = VectorSupport.ascii("4") + nameplate.bytes
            let prk = VectorPrimitives.hkdfExtract(salt: VectorSupport.ascii("AH4 typed relay"), inputKeyMaterial: [ikm])
            guard try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: VectorSupport.ascii("AH4 typed relay token"), length: 32) == keys.relayToken,
                  try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: VectorSupport.ascii("AH4 typed relay sender side"), length: 8) == keys.senderSide else {
                throw VectorGenerationError("relay \(value)")
            }
            let line = RelayHandshake.line(relayToken: keys.relayToken, side: keys.senderSide)
            return .object(["name": .string("nameplate \(nameplate.digits)"), "nameplate": .string(nameplate.digits), "ikm": .hex(ikm),
                            "relayPRK": .hex(prk), "relayToken": .hex(keys.relayToken), "senderSide": .hex(keys.senderSide),
                            "senderLine": .string(String(decoding: line, as: UTF8.self))])
        }
    }
}
