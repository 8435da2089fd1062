import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import Testing

/// Replays `Vectors/registries.json` through the real sender and receiver registries.
@Suite struct RegistryReplayTests {
    let vectors: [String: Any]

    init() throws { vectors = try VectorFiles.load("registries.json") }

    @Test func senderRegistryScripts() throws {
        let scripts = try vectors.objects("sender")
        #expect(scripts.count >= 2)
        for script in scripts {
            let registry = SenderRegistry.inMemory()
            var sessions: [String: HandoffSender] = [:]
            for (index, operation) in try script.objects("operations").enumerated() {
                let context = "\(script.name) operation \(index)"
                let expected = operation["result"]
                switch try operation.string("op") {
                case "start":
                    do {
                        let account = try SessionReplay.account(try operation.object("account"))
                        let rendezvous = try RendezvousToken(bytes: try operation.bytes("rendezvous"))
                        let configuration = try SenderConfiguration(lifetime: UInt32(try operation.int("lifetime")))
                        let seed = UInt64(try operation.int("seed")), now = try operation.date("now")
                        let sender = try HandoffSender.start(account: account, rendezvous: rendezvous, configuration: configuration,
                                                             random: InsecureDeterministicRandom(seed: seed), now: now, registry: registry)
                        sessions[try operation.string("session")] = sender
                        let result = try #require(expected as? [String: Any], "\(context): started, meant \(String(describing: expected))")
                        #expect(try sender.payload.transferID.bytes == result.bytes("transferID") && Int64(sender.payload.expiry) == result.int("expiry"),
                                "\(context)")
                    } catch let error as HandoffError {
                        #expect(error.identifier == expected as? String, "\(context)")
                    }
                case "event":
                    let sender = try #require(sessions[try operation.string("session")])
                    let event: SenderEvent = try operation.string("event") == "cancel" ? .cancel : .tick
                    _ = try sender.handle(event, now: try operation.date("now"))
                    #expect(sender.outcome?.identifier == expected as? String, "\(context)")
                case "admit":
                    let frame = try operation.bytes("frame"), now = try operation.date("now")
                    let admitted: TransferID
                    do {
                        admitted = try registry.admit(frame: frame, now: now)
                    } catch {
                        #expect(error.identifier == expected as? String, "\(context)")
                        continue
                    }
                    let result = try #require(expected as? [String: Any], "\(context): admitted, meant \(String(describing: expected))")
                    #expect(try admitted.bytes == result.bytes("transferID"), "\(context)")
                case "status":
                    let status = registry.status(of: TransferID(bytes: try operation.bytes("transferID"))!)
                    let described: String? = switch status {
                    case nil: nil
                    case .pending: "pending"
                    case .finished(let outcome): "finished." + outcome
                    }
                    #expect(described == expected as? String, "\(context)")
                case "prune":
                    registry.prune(now: try operation.date("now"))
                case let other:
                    Issue.record("\(context): unknown operation \(other)")
                }
            }
        }
        let errors = Set(try scripts.flatMap { try $0.objects("operations") }.compactMap { $0["result"] as? String })
        #expect(errors.isSuperset(of: ["transferIDInUse", "unknownTransfer", "transferConsumed", "expired", "invalidClock",
                                       "malformed.frameHeader", "oversizedFrame"]))
    }

    @Test func receiverRegistryScripts() throws {
        for script in try vectors.objects("receiver") {
            let registry = ReceiverRegistry.inMemory()
            for (index, operation) in try script.objects("operations").enumerated() {
                let context = "\(script.name) operation \(index)"
                switch try operation.string("op") {
                case "scan":
                    let payload = try SessionPayload(text: try operation.string("text"))
                    #expect(try payload.transferID.bytes == operation.bytes("transferID"), "\(context): transfer ID")
                    let result = identifier {
                        _ = try HandoffReceiver.scan(payload: payload, configuration: ReceiverConfiguration(clockSkewTolerance: UInt32(try operation.int("skew"))),
                                                     random: InsecureDeterministicRandom(seed: UInt64(try operation.int("seed"))),
                                                     now: try operation.date("now"), registry: registry)
                    }
                    #expect(try result == operation.string("result"), "\(context)")
                case "hasClaimed":
                    #expect(registry.hasClaimed(TransferID(bytes: try operation.bytes("transferID"))!) == operation["result"] as? Bool, "\(context)")
                case "release":
                    registry.release(TransferID(bytes: try operation.bytes("transferID"))!)
                case "prune":
                    registry.prune(now: try operation.date("now"))
                case let other:
                    Issue.record("\(context): unknown operation \(other)")
                }
            }
        }
    }
}
