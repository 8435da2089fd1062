import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import Testing

/// Replays `Vectors/typed-code.json` (Spec 12) through the real code: drawing, entry parsing,
/// `CI`, scalar sampling, CPace runs and the relay token.
@Suite struct TypedCodeVectorTests {
    let vectors: [String: Any]

    init() throws { vectors = try VectorFiles.load("typed-code.json") }

    /// The random source an entry names: its `seed`, or its `script` of blocks.
    private func source(_ entry: [String: Any]) throws -> RandomSource {
        if let seed = entry["seed"] as? NSNumber { return InsecureDeterministicRandom(seed: seed.uint64Value) }
        let blocks = try #require(entry["script"] as? [String], "\(entry.name)").map { try #require(hexBytes($0)) }
        return ScriptedRandom(blocks)
    }

    @Test func tableAndCheckDigits() throws {
        let rows = try #require(vectors["dammTable"] as? [[NSNumber]])
        #expect(rows.flatMap { $0.map(\.uint8Value) } == DammCheckDigit.table)
        for entry in try vectors.objects("checkDigits") {
            #expect(try Int64(DammCheckDigit.interim(entry.string("digits"))) == entry.int("interim"), "\(entry.name)")
        }
    }

    @Test func drawnCodes() throws {
        let codes = try vectors.objects("codes")
        #expect(codes.count >= 12)
        for entry in codes {
            let random = try source(entry)
            if let error = entry["error"] as? String {
                #expect(identifier { _ = try TypedCode.draw(from: random) } == error, "\(entry.name)")
                continue
            }
            let code = try TypedCode.draw(from: random)
            #expect(try code.nameplate.digits == entry.string("nameplate"), "\(entry.name)")
            #expect(try code.digits == entry.string("digits") && code.grouped == entry.string("grouped"), "\(entry.name)")
            #expect(try code.spoken == entry.string("spoken") && Int64(code.checkDigit) == entry.int("checkDigit"), "\(entry.name)")
            #expect(try code.digits.dropFirst(3).prefix(7) == entry.string("secret").prefix(7), "\(entry.name)")
        }
    }

    @Test func typedEntries() throws {
        let entries = try vectors.objects("entries")
        var results: Set<String> = []
        for entry in entries {
            let typed = try entry.string("typed"), expected = try entry.string("result")
            results.insert(expected)
            let result = identifier { _ = try TypedCode(entry: typed) }
            #expect(result == expected, "\(entry.name)")
            if expected == "ok" { #expect(try TypedCode(entry: typed).digits == entry.string("digits"), "\(entry.name)") }
        }
        #expect(results == ["ok", "malformed.typedCode", "typedCodeIsShortCode", "typedCodeCheckFailed"])
    }

    private func route(_ entry: [String: Any], _ key: String) throws -> TypedRoute {
        let name = try entry.string(key)
        guard let route = TypedRoute.allCases.first(where: { $0.description == name }) else { throw VectorFormatError("route \(name)") }
        return route
    }

    @Test func channelIdentifiers() throws {
        for entry in try vectors.objects("channelIdentifiers") {
            let nameplate = try #require(TypedCode.Nameplate(digits: try entry.string("nameplate")))
            let transferID = try #require(TransferID(bytes: try entry.bytes("transferID")))
            let ci = TypedChannelIdentifier.encode(nameplate: nameplate, expiry: UInt32(try entry.int("expiry")),
                                                   route: try route(entry, "route"), transferID: transferID)
            #expect(try ci == entry.bytes("ci"), "\(entry.name)")
        }
    }

    @Test func scalars() throws {
        for entry in try vectors.objects("scalars") {
            let blocks = try #require(entry["draws"] as? [String]).map { try #require(hexBytes($0)) }
            let random = ScriptedRandom(blocks)
            if let error = entry["error"] as? String {
                #expect(identifier { _ = try VectorPrimitives.cpaceSampleScalar(from: random) } == error, "\(entry.name)")
            } else {
                #expect(try VectorPrimitives.cpaceSampleScalar(from: random) == entry.bytes("scalar"), "\(entry.name)")
            }
            #expect(random.requestedCounts.count == blocks.count, "\(entry.name): every recorded draw is drawn")
        }
    }

    /// Each run through two ``CPaceRun``s built as the typed mode builds them.
    @Test func runs() throws {
        for entry in try vectors.objects("runs") {
            let senderCode = try TypedCode(entry: try entry.string("senderCode"))
            let receiverCode = try TypedCode(entry: try entry.string("receiverCode"))
            let transferID = try #require(TransferID(bytes: try entry.bytes("transferID")))
            let expiry = UInt32(try entry.int("expiry"))
            let senderCI = TypedChannelIdentifier.encode(nameplate: senderCode.nameplate, expiry: expiry,
                                                         route: try route(entry, "senderRoute"), transferID: transferID)
            let receiverCI = TypedChannelIdentifier.encode(nameplate: receiverCode.nameplate, expiry: expiry,
                                                           route: try route(entry, "receiverRoute"), transferID: transferID)
            #expect(try senderCI == entry.bytes("senderCI") && receiverCI == entry.bytes("receiverCI"), "\(entry.name)")
            let sid = try entry.bytes("sid")
            let sender = try CPaceRun(role: .initiator, password: try senderCode.password(), channelIdentifier: senderCI, sessionID: sid,
                                      random: ScriptedRandom([try entry.bytes("senderDraw")]))
            let receiver = try CPaceRun(role: .responder, password: try receiverCode.password(), channelIdentifier: receiverCI,
                                        sessionID: sid, random: ScriptedRandom([try entry.bytes("receiverDraw")]))
            #expect(try sender.ownShare.bytes == entry.bytes("Ya"), "\(entry.name)")
            let yb = try #require(CPaceShare(bytes: try entry.bytes("Yb")))
            if let error = entry["senderError"] as? String {
                #expect(identifier { _ = try sender.intermediateSessionKey(peerShare: yb) } == error, "\(entry.name)")
                continue
            }
            #expect(receiver.ownShare == yb, "\(entry.name)")
            let senderKey = try sender.intermediateSessionKey(peerShare: yb)
            let receiverKey = try receiver.intermediateSessionKey(peerShare: sender.ownShare)
            #expect(try senderKey.revealedBytes() == entry.bytes("senderISK"), "\(entry.name)")
            #expect(try receiverKey.revealedBytes() == entry.bytes("receiverISK"), "\(entry.name)")
            #expect((senderKey.revealedBytes() == receiverKey.revealedBytes()) == (entry["keysMatch"] as? Bool), "\(entry.name)")
        }
    }

    @Test func relayTokens() throws {
        for entry in try vectors.objects("relay") {
            let keys = try TypedRelayKeys(nameplate: try #require(TypedCode.Nameplate(digits: try entry.string("nameplate"))))
            #expect(try keys.relayToken == entry.bytes("relayToken") && keys.senderSide == entry.bytes("senderSide"), "\(entry.name)")
        }
    }
}
