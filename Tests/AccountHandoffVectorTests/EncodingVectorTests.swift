import AccountHandoffTestSupport
import Foundation
@_spi(Vectors) import AccountHandoff
import Testing

/// Replays `qr-payload.json`, `frames.json`, `plaintexts.json` and `short-code.json`.
@Suite struct EncodingVectorTests {
    @Test func qrPayloadsEncodeAndDecode() throws {
        let valid = try VectorFiles.load("qr-payload.json").objects("valid")
        #expect(valid.count >= 12)
        for entry in valid {
            let fields = try entry.object("fields")
            let payload = try VectorPrimitives.payload(transferID: try fields.bytes("transferID"), expiry: UInt32(try fields.int("expiry")),
                                                       challenge: try fields.bytes("challenge"),
                                                       senderPublicKey: try fields.bytes("senderPublicKey"),
                                                       rendezvous: try fields.bytes("rendezvous"))
            #expect(try payload.binary == entry.bytes("binary"))
            #expect(try payload.text == entry.string("text"))
            let decoded = try SessionPayload(text: try entry.string("text"))
            #expect(decoded == payload)
            #expect(try decoded.version == 1 && decoded.intent.rawValue == UInt8(fields.int("intent")))
        }
    }

    @Test func invalidQRTextsGiveTheirError() throws {
        let vectors = try VectorFiles.load("qr-payload.json")
        let texts = try vectors.objects("invalidText")
        #expect(texts.count >= 30)
        for entry in texts {
            let text = try entry.string("text"), expected = try entry.string("error"), name = try entry.string("name")
            #expect(identifier { _ = try SessionPayload(text: text) } == expected, "\(name)")
        }
        for entry in try vectors.objects("invalidBinary") {
            let binary = try entry.bytes("binary"), expected = try entry.string("error")
            #expect(identifier { _ = try SessionPayload(binary: binary) } == expected)
        }
    }

    @Test func scanTimeChecks() throws {
        for entry in try VectorFiles.load("qr-payload.json").objects("scanChecks") {
            let payload = try SessionPayload(text: try entry.string("text"))
            let skew = UInt32(try entry.int("skew")), seed = UInt64(try entry.int("receiverSeed"))
            let now = Date(timeIntervalSince1970: TimeInterval(try entry.int("now")))
            let expected = try entry.string("result"), name = try entry.string("name")
            let result = identifier {
                _ = try HandoffReceiver.scan(payload: payload, configuration: ReceiverConfiguration(clockSkewTolerance: skew),
                                             random: InsecureDeterministicRandom(seed: seed), now: now)
            }
            #expect(result == expected, "\(name)")
        }
    }

    @Test func framesEncodeAndDecode() throws {
        let vectors = try VectorFiles.load("frames.json")
        for entry in try vectors.objects("valid") {
            let type = try #require(MessageType(rawValue: UInt8(try entry.int("typeValue"))))
            #expect(try type.description == entry.string("type"))
            let transferID = try #require(TransferID(bytes: try entry.bytes("transferID")))
            let bytes = VectorPrimitives.frameBytes(type: type, transferID: transferID, sequence: UInt32(try entry.int("sequence")),
                                                    body: try entry.bytes("body"))
            #expect(try bytes == entry.bytes("bytes"))
            let frame = try Frame(bytes: bytes)
            #expect(try frame.header == entry.bytes("header") && frame.body == entry.bytes("body"))
        }
        let invalid = try vectors.objects("invalid")
        #expect(invalid.count >= 25)
        for entry in invalid {
            let bytes = try entry.bytes("bytes"), expected = try entry.string("error"), name = try entry.string("name")
            #expect(identifier { _ = try Frame(bytes: bytes) } == expected, "\(name)")
        }
    }

    @Test func plaintexts() throws {
        let vectors = try VectorFiles.load("plaintexts.json")
        for entry in try vectors.objects("offer") {
            let account = try SessionReplay.account(try entry.object("account"))
            #expect(try VectorPrimitives.offerPlaintext(account) == entry.bytes("plaintext"))
            #expect(try VectorPrimitives.decodeOfferPlaintext(entry.bytes("plaintext")) == account)
        }
        for entry in try vectors.objects("invalidOffer") {
            let plaintext = try entry.bytes("plaintext"), expected = try entry.string("error"), name = try entry.string("name")
            #expect(identifier { _ = try VectorPrimitives.decodeOfferPlaintext(plaintext) } == expected, "\(name)")
        }
        for entry in try vectors.objects("credential") {
            #expect(try VectorPrimitives.credentialPlaintext(entry.bytes("password")) == entry.bytes("plaintext"))
            #expect(try VectorPrimitives.decodeCredentialPlaintext(entry.bytes("plaintext")) == entry.bytes("password"))
        }
        for entry in try vectors.objects("invalidCredential") {
            let expected = try entry.string("error"), name = try entry.string("name")
            let result: String
            if try entry.string("operation") == "encode" {
                let password = try entry.bytes("password")
                result = identifier { _ = try VectorPrimitives.credentialPlaintext(password) }
            } else {
                let plaintext = try entry.bytes("plaintext")
                result = identifier { _ = try VectorPrimitives.decodeCredentialPlaintext(plaintext) }
            }
            #expect(result == expected, "\(name)")
        }
    }

    @Test func shortCodes() throws {
        let vectors = try VectorFiles.load("short-code.json")
        #expect(try UInt32(vectors.int("rejectionBound")) == VectorPrimitives.shortCodeRejectionBound)
        for entry in try vectors.objects("derivations") {
            let material = try entry.bytes("material")
            if entry["acceptedIndex"] is NSNull {
                #expect(VectorPrimitives.shortCode(material: material) == nil)
                #expect(try entry.string("error") == "keyDerivationFailed")
            } else {
                let code = try #require(VectorPrimitives.shortCode(material: material))
                let expected = try entry.object("code")
                #expect(try VectorPrimitives.acceptedCandidateIndex(material: material) == Int(entry.int("acceptedIndex")))
                #expect(try code.value == UInt32(expected.int("value")) && code.digits == expected.string("digits"))
                #expect(try code.grouped == expected.string("grouped") && code.spoken == expected.string("spoken"))
            }
        }
        for entry in try vectors.objects("typed") {
            let code = try #require(VectorPrimitives.shortCode(material: Self.material(forDigits: try entry.string("code"))))
            let typed = try entry.string("typed")
            #expect(code.matches(typed: typed) == (entry["matches"] as? Bool), "\(typed)")
        }
    }

    /// Code material whose first candidate yields `digits`.
    static func material(forDigits digits: String) -> [UInt8] {
        let value = UInt32(digits)!
        return [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
            + [UInt8](repeating: 0, count: 60)
    }
}

/// The error identifier `body` throws, or `"ok"`.
func identifier(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "ok"
    } catch let error as HandoffError {
        return error.identifier
    } catch {
        return "unexpected \(error)"
    }
}
