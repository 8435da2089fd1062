import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import Testing

/// Replays `Vectors/qr-payload.json`: encodings, the derived transfer ID and commitment,
/// every decoding error, and the scan steps with their registry claims.
@Suite struct PayloadVectorTests {
    let vectors: [String: Any]

    init() throws { vectors = try VectorFiles.load("qr-payload.json") }

    @Test func validPayloadsEncodeDecodeAndDerive() throws {
        let valid = try vectors.objects("valid")
        #expect(valid.count >= 12)
        for entry in valid {
            let fields = try entry.object("fields")
            let nonce = try entry.bytes("nonce")
            #expect(try VectorPrimitives.commitment(nonce: nonce) == fields.bytes("commitment"), "\(entry.name): commitment opens")
            let payload = try VectorPrimitives.payload(expiry: UInt32(try fields.int("expiry")), commitment: try fields.bytes("commitment"),
                                                       senderPublicKey: try fields.bytes("senderPublicKey"),
                                                       rendezvous: try fields.bytes("rendezvous"))
            #expect(try payload.binary == entry.bytes("binary"), "\(entry.name)")
            #expect(try payload.text == entry.string("text"), "\(entry.name)")
            #expect(try payload.text.utf8.count == Int(entry.int("textLength")), "\(entry.name)")
            #expect(try payload.transferID.bytes == entry.bytes("transferID"), "\(entry.name): transfer ID")
            #expect(try VectorPrimitives.sha256([Array("AH4 transcript".utf8), payload.binary]) == entry.bytes("th0"), "\(entry.name): TH0")
            let decoded = try SessionPayload(text: try entry.string("text"))
            #expect(decoded == payload && decoded.binary == payload.binary, "\(entry.name)")
            #expect(try SessionPayload(binary: try entry.bytes("binary")) == payload, "\(entry.name)")
            #expect(try decoded.version == UInt8(fields.int("version")) && decoded.intent.rawValue == UInt8(fields.int("intent")))
        }
        let rendezvousLengths = Set(try valid.map { try $0.object("fields").bytes("rendezvous").count })
        #expect(rendezvousLengths.isSuperset(of: [0, 1, 2, 3, 4, 5, 6, 8, 32]))
        #expect(Set(try valid.map { try $0.object("fields").int("expiry") }).isSuperset(of: [0, 4_294_967_295]))
    }

    @Test func invalidTextsAndBinariesGiveTheirError() throws {
        let texts = try vectors.objects("invalidText")
        #expect(texts.count >= 40)
        for entry in texts {
            let text = try entry.string("text"), expected = try entry.string("error")
            #expect(identifier { _ = try SessionPayload(text: text) } == expected, "\(entry.name)")
        }
        let binaries = try vectors.objects("invalidBinary")
        for entry in binaries {
            let binary = try entry.bytes("binary"), expected = try entry.string("error")
            #expect(identifier { _ = try SessionPayload(binary: binary) } == expected, "\(entry.name)")
        }
        // Every binary step B1-B12 is pinned, B3 by a version-1 payload.
        let errors = Set(try binaries.map { try $0.string("error") })
        #expect(errors.isSuperset(of: ["malformed.length", "malformed.version", "unsupportedVersion", "malformed.intent", "wrongIntent",
                                       "malformed.expiry", "malformed.commitment", "malformed.publicKey", "malformed.rendezvous",
                                       "rendezvousTooLong", "malformed.trailingBytes"]))
        #expect(try binaries.contains { try $0.bytes("binary").first == 1 && $0.string("error") == "unsupportedVersion" })
    }

    @Test func scanStepsInOrder() throws {
        let checks = try vectors.objects("scanChecks")
        #expect(checks.count >= 25)
        for entry in checks {
            let payload = try SessionPayload(text: try entry.string("text"))
            let registryJSON = entry["registry"] as? [String: Any]
            let storage = try registryJSON.map { json in
                MemoryStorage(try json.objects("before").map { record in
                    RegistryRecord(transferID: TransferID(bytes: try record.bytes("transferID"))!, expiry: UInt32(try record.int("expiry")),
                                   outcomeIdentifier: nil)
                })
            }
            let registry = try storage.map { try ReceiverRegistry(storage: $0) }
            let skew = UInt32(try entry.int("skew")), seed = UInt64(try entry.int("receiverSeed")), now = try entry.date("now")
            let result = identifier {
                let configuration = try ReceiverConfiguration(clockSkewTolerance: skew)
                let (receiver, step) = try HandoffReceiver.scan(payload: payload, configuration: configuration,
                                                                random: InsecureDeterministicRandom(seed: seed), now: now, registry: registry)
                // A scan that passes returns exactly one hello and no code (Spec 2.5, 6.2).
                guard step.actions.count == 1, case .send = step.actions[0], receiver.shortCode == nil else {
                    throw VectorFormatError("scan did not return a single hello")
                }
            }
            #expect(try result == entry.string("result"), "\(entry.name)")
            if let registryJSON, let registry {
                let after = try registryJSON.objects("after").map { try $0.bytes("transferID") }
                let candidates = try registryJSON.objects("before").map { try $0.bytes("transferID") } + [payload.transferID.bytes]
                for id in candidates {
                    #expect(registry.hasClaimed(TransferID(bytes: id)!) == after.contains(id), "\(entry.name): claim of \(hexString(id))")
                }
            }
        }
        let results = Set(try checks.map { try $0.string("result") })
        #expect(results == ["ok", "invalidClock", "invalidConfiguration", "expired", "expiryTooFar", "alreadyScanned", "lowOrderPublicKey"])
    }
}
