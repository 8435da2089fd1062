import AccountHandoff
import AccountHandoffTestSupport
import AccountHandoffVectors
import Foundation
import Testing

/// Replays `Vectors/frames.json` and `Vectors/plaintexts.json` through the real frame
/// decoder, offer and credential codecs and the account text rules.
@Suite struct FrameAndPlaintextVectorTests {
    @Test func framesEncodeAndDecode() throws {
        let vectors = try VectorFiles.load("frames.json")
        let valid = try vectors.objects("valid")
        for entry in valid {
            let type = try #require(MessageType(rawValue: UInt8(try entry.int("typeValue"))))
            #expect(try type.description == entry.string("type"))
            let transferID = try #require(TransferID(bytes: try entry.bytes("transferID")))
            let bytes = VectorPrimitives.frameBytes(type: type, transferID: transferID, sequence: UInt32(try entry.int("sequence")),
                                                    body: try entry.bytes("body"))
            #expect(try bytes == entry.bytes("bytes") && bytes.count == Int(entry.int("length")), "\(entry.name)")
            let frame = try Frame(bytes: bytes)
            #expect(try frame.header == entry.bytes("header") && frame.body == entry.bytes("body"), "\(entry.name)")
        }
        #expect(Set(try valid.map { try $0.int("typeValue") }) == Set(1...11))
        #expect(try valid.contains { try $0.string("type") == "offer" && $0.int("length") == 3880 })
        let invalid = try vectors.objects("invalid")
        #expect(invalid.count >= 35)
        for entry in invalid {
            let bytes = try entry.bytes("bytes"), expected = try entry.string("error")
            #expect(identifier { _ = try Frame(bytes: bytes) } == expected, "\(entry.name)")
            #expect(try bytes.count == Int(entry.int("length")), "\(entry.name)")
        }
        #expect(try invalid.contains { try $0.int("length") == 4096 && $0.string("error") != "oversizedFrame" })
        #expect(try invalid.contains { try $0.int("length") == 4097 && $0.string("error") == "oversizedFrame" })
    }

    @Test func offersPadToTheirBlocks() throws {
        let vectors = try VectorFiles.load("plaintexts.json")
        for entry in try vectors.objects("offer") {
            let account = try SessionReplay.account(try entry.object("account"))
            let plaintext = try entry.bytes("plaintext")
            let senderGate = try #require(GateDeclaration(rawValue: UInt8(try entry.int("senderGate"))))
            #expect(VectorPrimitives.offerPlaintext(account, senderGate: senderGate) == plaintext, "\(entry.name)")
            #expect(try VectorPrimitives.decodeOffer(plaintext).senderGate == senderGate, "\(entry.name)")
            #expect(try VectorPrimitives.decodeOfferPlaintext(plaintext) == account, "\(entry.name)")
            let record = Int(plaintext[0]) << 8 | Int(plaintext[1])
            #expect(try record == Int(entry.int("recordLength")) && plaintext.count == Int(entry.int("plaintextLength")), "\(entry.name)")
            #expect(try plaintext.count == 256 * Int(entry.int("blocks")) && plaintext.count == (2 + record + 255) / 256 * 256, "\(entry.name)")
        }
        let records = Set(try vectors.objects("offer").map { try $0.int("recordLength") })
        #expect(records.isSuperset(of: [254, 255, 1177]))
        for entry in try vectors.objects("invalidOffer") {
            let plaintext = try entry.bytes("plaintext"), expected = try entry.string("error")
            #expect(identifier { _ = try VectorPrimitives.decodeOfferPlaintext(plaintext) } == expected, "\(entry.name)")
        }
    }

    @Test func credentials() throws {
        let vectors = try VectorFiles.load("plaintexts.json")
        for entry in try vectors.objects("credential") {
            #expect(try VectorPrimitives.credentialPlaintext(entry.bytes("password")) == entry.bytes("plaintext"), "\(entry.name)")
            #expect(try VectorPrimitives.decodeCredentialPlaintext(entry.bytes("plaintext")) == entry.bytes("password"), "\(entry.name)")
        }
        for entry in try vectors.objects("invalidCredential") {
            let expected = try entry.string("error")
            let result: String
            if try entry.string("operation") == "encode" {
                let password = try entry.bytes("password")
                result = identifier { _ = try VectorPrimitives.credentialPlaintext(password) }
            } else {
                let plaintext = try entry.bytes("plaintext")
                result = identifier { _ = try VectorPrimitives.decodeCredentialPlaintext(plaintext) }
            }
            #expect(result == expected, "\(entry.name)")
        }
    }

    @Test func displayStrings() throws {
        let strings = try VectorFiles.load("plaintexts.json").objects("displayStrings")
        for entry in strings {
            let text = try entry.string("text")
            #expect(try Array(text.utf8) == entry.bytes("utf8"), "\(entry.name): utf8")
            let field = try #require(HandoffError.Field(rawValue: try entry.string("field")))
            #expect(try identifier { try VectorPrimitives.validateAccountText(text, field: field) } == entry.string("result"), "\(entry.name)")
            #expect(try (entry["rule"] is NSNull) == (entry.string("result") == "ok"), "\(entry.name): rule and result agree")
        }
        // Every rule T1-T7 is pinned by at least one refused string, and every field accepts something.
        let rules = Set(strings.compactMap { $0["rule"] as? String })
        #expect(rules == ["T1", "T2", "T3", "T4", "T5", "T6", "T7"])
        let accepted = Set(try strings.filter { try $0.string("result") == "ok" }.map { try $0.string("field") })
        #expect(accepted == ["displayName", "emailAddress", "username", "imapHost"])
    }

    /// Every code point at an edge of a range of Spec/account-text-tables.txt, in each context
    /// (`plaintexts.json#codePoints`): the library decides each string as the vector says.
    @Test func codePointsAtTheTablesEdges() throws {
        let contexts = try VectorFiles.load("plaintexts.json").objects("codePoints")
        #expect(contexts.count == CodePointVectors.contexts.count)
        let edges = try CodePointVectors.edgeCodePoints().map(Int.init)
        for entry in contexts {
            let field = try #require(HandoffError.Field(rawValue: try entry.string("field")))
            let before = try entry.string("before"), after = try entry.string("after"), count = Int(try entry.int("repeat"))
            let refused = try entry.bytes("refused"), declared = Int(try entry.int("codePoints"))
            #expect(refused.count == (edges.count + 7) / 8 && declared == edges.count, "\(entry.name): one bit per code point")
            var wrong: [Int] = []
            for (index, value) in edges.enumerated() {
                let text = before + String(repeating: String(Character(Unicode.Scalar(UInt32(value))!)), count: count) + after
                let expected = refused[index / 8] & (0x80 >> UInt8(index % 8)) == 0 ? "ok" : "malformed.\(field.rawValue)"
                if identifier({ try VectorPrimitives.validateAccountText(text, field: field) }) != expected { wrong.append(value) }
            }
            #expect(wrong.isEmpty, "\(entry.name): decided otherwise at \(wrong.prefix(10).map { String($0, radix: 16) })")
        }
    }
}
