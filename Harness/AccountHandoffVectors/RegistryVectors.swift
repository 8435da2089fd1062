import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// `registries.json`: operation scripts against one real ``SenderRegistry`` or
/// ``ReceiverRegistry`` each (Spec 6.3): registration and reuse, admission with every refusal
/// in order, outcomes, claims and their give-back, release, and pruning at the exact boundary.
enum RegistryVectors {
    static func make() throws -> JSONValue {
        .object([
            "description": .string("Registries (Spec 6.3): scripts of operations against one fresh in-memory registry each, with the result of every operation. Times are Unix seconds."),
            "sender": .array([try senderLifecycle(), try senderPruning()]),
            "receiver": .array([try receiverLifecycle()]),
        ])
    }

    // MARK: Sender registry

    /// Runs sender registry operations and records them.
    final class SenderScript {
        let registry: SenderRegistry
        private(set) var operations: [JSONValue] = []
        private var sessions: [String: HandoffSender] = [:]

        init() throws { registry = SenderRegistry.inMemory() }

        /// Starts a session; same `seed`, `now`, `lifetime` and rendezvous give the same QR.
        @discardableResult
        func start(_ session: String, seed name: String, now: Double, lifetime: UInt32 = 180,
                   expect expected: HandoffError? = nil) throws -> SessionPayload? {
            let seed = VectorSupport.seed("registry/" + name)
            let account = try VectorSupport.standardAccount("registry/" + name)
            let rendezvous = VectorSupport.bytes(seed: VectorSupport.seed("registry/rendezvous/" + name), count: 8)
            var result: JSONValue
            var payload: SessionPayload?
            do {
                let token = try RendezvousToken(bytes: rendezvous)
                let configuration = try SenderConfiguration(lifetime: lifetime)
                let sender = try HandoffSender.start(account: account, rendezvous: token, configuration: configuration,
                                                     random: InsecureDeterministicRandom(seed: seed), now: VectorSupport.date(now),
                                                     registry: registry)
                sessions[session] = sender
                payload = sender.payload
                result = .object(["transferID": .hex(sender.payload.transferID.bytes), "expiry": .number(sender.payload.expiry)])
            } catch {
                result = .string(error.identifier)
            }
            try check(result, expected, "start \(session)")
            operations.append(.object(["op": .string("start"), "session": .string(session), "seed": .number(seed),
                                       "now": .time(now), "lifetime": .number(lifetime), "rendezvous": .hex(rendezvous),
                                       "account": VectorSupport.account(account), "result": result]))
            return payload
        }

        /// Feeds `cancel` or `tick` to a started session; the registry records its outcome.
        func event(_ session: String, _ event: SenderEvent, now: Double) throws {
            let sender = sessions[session]!
            _ = try sender.handle(event, now: VectorSupport.date(now))
            let name: String
            switch event {
            case .cancel: name = "cancel"
            case .tick: name = "tick"
            default: throw VectorGenerationError("registry scripts feed only cancel and tick")
            }
            operations.append(.object(["op": .string("event"), "session": .string(session), "event": .string(name), "now": .time(now),
                                       "result": sender.outcome.map { .string($0.identifier) } ?? .null]))
        }

        func admit(_ frame: [UInt8], now: Double, expect expected: HandoffError?, note: String) throws {
            var result: JSONValue
            do {
                let id = try registry.admit(frame: frame, now: VectorSupport.date(now))
                result = .object(["transferID": .hex(id.bytes)])
            } catch {
                result = .string(error.identifier)
            }
            try check(result, expected, "admit \(note)")
            operations.append(.object(["op": .string("admit"), "note": .string(note), "frame": .hex(frame), "now": .time(now), "result": result]))
        }

        func status(_ transferID: TransferID, expect expected: String?) throws {
            let result: String?
            switch registry.status(of: transferID) {
            case nil: result = nil
            case .pending: result = "pending"
            case .finished(let outcome): result = "finished." + outcome
            }
            guard result == expected else { throw VectorGenerationError("registry status: got \(result ?? "null"), meant \(expected ?? "null")") }
            operations.append(.object(["op": .string("status"), "transferID": .hex(transferID.bytes),
                                       "result": result.map(JSONValue.string) ?? .null]))
        }

        func prune(now: Double) {
            registry.prune(now: VectorSupport.date(now))
            operations.append(.object(["op": .string("prune"), "now": .time(now), "result": .null]))
        }

        private func check(_ result: JSONValue, _ expected: HandoffError?, _ what: String) throws {
            let isError: Bool
            if case .string = result { isError = true } else { isError = false }
            guard isError == (expected != nil), !isError || result == .string(expected!.identifier) else {
                throw VectorGenerationError("registry \(what): got \(result), meant \(expected?.identifier ?? "success")")
            }
        }
    }

    /// A hello-shaped frame of `transferID` (admission decodes, never decrypts).
    static func frame(_ transferID: TransferID, version: UInt8 = SessionPayload.currentVersion) -> [UInt8] {
        VectorSupport.patched(VectorPrimitives.frameBytes(type: .hello, transferID: transferID, sequence: 0,
                                                          body: VectorSupport.bytes(seed: VectorSupport.seed("registry/frame"), count: 64)), 0, version)
    }

    private static func senderLifecycle() throws -> JSONValue {
        let script = try SenderScript()
        let t0 = VectorSupport.startTime
        guard let first = try script.start("first", seed: "first", now: t0) else { throw VectorGenerationError("registry start") }
        let id = first.transferID
        let expiry = Double(first.expiry)
        let unknown = TransferID(bytes: VectorSupport.flip(id.bytes, at: 15))!
        try script.status(id, expect: "pending")
        try script.admit(frame(id), now: t0 + 10, expect: nil, note: "a frame of the pending transfer")
        try script.admit(Array(frame(id).prefix(23)), now: t0 + 10, expect: .malformed(.frameHeader), note: "23 bytes: frame errors first")
        try script.admit(frame(unknown) + [UInt8](repeating: 0, count: 4009), now: t0 + 10, expect: .oversizedFrame(4097),
                         note: "4097 bytes of an unknown transfer: frame errors before unknownTransfer")
        try script.admit(frame(id, version: 1), now: t0 + 10, expect: .unsupportedVersion(1), note: "a version-1 frame of the pending transfer")
        try script.admit(frame(unknown), now: t0 + 10, expect: .unknownTransfer, note: "a transfer this registry never issued")
        try script.admit(frame(unknown), now: .nan, expect: .invalidClock, note: "an unknown transfer at NaN: the clock before the ID")
        try script.admit(frame(id), now: .nan, expect: .invalidClock, note: "now is NaN")
        try script.admit(frame(id), now: .infinity, expect: .invalidClock, note: "now is +infinity")
        try script.admit(Array(frame(id).prefix(23)), now: .nan, expect: .malformed(.frameHeader), note: "a malformed frame at NaN: frame errors first")
        try script.admit(frame(id), now: expiry - 0.5, expect: nil, note: "half a second before the expiry")
        try script.admit(frame(id), now: expiry, expect: nil, note: "at the expiry: still admitted during the receipt wait")
        try script.admit(frame(id), now: expiry + 119.5, expect: nil, note: "half a second before the end of the receipt wait")
        try script.admit(frame(id), now: expiry + 120, expect: .expired, note: "at the end of the receipt wait (expiry + 120)")
        try script.admit(frame(id) + [0], now: expiry + 120, expect: .malformed(.trailingBytes),
                         note: "a trailing byte at the end of the receipt wait: frame errors before expired")
        try script.admit(frame(unknown), now: expiry + 120, expect: .unknownTransfer, note: "unknown at the end of the receipt wait: unknownTransfer before expired")
        try script.start("first-again", seed: "first", now: t0, expect: .transferIDInUse)
        try script.status(id, expect: "pending")
        try script.event("first", .cancel, now: t0 + 20)
        try script.status(id, expect: "finished.cancelled.local")
        try script.admit(frame(id), now: t0 + 30, expect: .transferConsumed, note: "the finished transfer")
        try script.admit(frame(id) + [0], now: t0 + 30, expect: .malformed(.trailingBytes),
                         note: "the finished transfer with a trailing byte: frame errors before transferConsumed")
        try script.admit(frame(id), now: .nan, expect: .invalidClock, note: "the finished transfer at NaN: the clock before transferConsumed")
        try script.admit(frame(id), now: expiry + 200, expect: .transferConsumed, note: "finished and past the receipt wait: transferConsumed before expired")
        try script.start("first-again", seed: "first", now: t0, expect: .transferIDInUse)
        script.prune(now: expiry + 3599.5)
        try script.status(id, expect: "finished.cancelled.local")
        script.prune(now: expiry + 3600)
        try script.status(id, expect: nil)
        try script.admit(frame(id), now: expiry + 3600, expect: .unknownTransfer, note: "pruned: refused as unknown")
        try script.start("first-after-pruning", seed: "first", now: t0, expect: nil)
        try script.status(id, expect: "pending")
        return .object(["name": .string("sender-registry-lifecycle"),
                        "description": .string("A start that admission refuses registers nothing; register, reuse refused, admit with every refusal in order, outcome recorded, consumed, pruned at exactly expiry + 3600."),
                        "operations": .array(script.operations)])
    }

    private static func senderPruning() throws -> JSONValue {
        let script = try SenderScript()
        let t0 = VectorSupport.startTime
        guard let early = try script.start("early", seed: "early", now: t0, lifetime: 30),
              let late = try script.start("late", seed: "late", now: t0 + 0.5, lifetime: 600) else { throw VectorGenerationError("registry start") }
        try script.event("early", .tick, now: Double(early.expiry) - 0.5)
        try script.status(early.transferID, expect: "pending")
        try script.event("early", .tick, now: Double(early.expiry))
        try script.status(early.transferID, expect: "finished.expired")
        try script.admit(frame(late.transferID), now: Double(early.expiry) + 1, expect: nil, note: "the late transfer is still pending")
        script.prune(now: Double(early.expiry) + 3600)
        try script.status(early.transferID, expect: nil)
        try script.status(late.transferID, expect: "pending")
        script.prune(now: Double(late.expiry) + 3600)
        try script.status(late.transferID, expect: nil)
        return .object(["name": .string("sender-registry-pruning"),
                        "description": .string("An expired outcome is recorded; pruning forgets each entry at its own expiry + 3600, pending or finished."),
                        "operations": .array(script.operations)])
    }

    // MARK: Receiver registry

    private static func receiverLifecycle() throws -> JSONValue {
        let registry = ReceiverRegistry.inMemory()
        var operations: [JSONValue] = []
        let t0 = VectorSupport.startTime
        let qr = try PayloadVectors.seeded("registry receiver", rendezvousLength: 8).payload
        let lowOrder = try PayloadVectors.seeded("registry low order", rendezvousLength: 8, senderPublicKey: [UInt8](repeating: 0, count: 32)).payload
        let expired = try PayloadVectors.seeded("registry expired", expiry: 1_800_000_030, rendezvousLength: 8).payload
        let expiry = Double(qr.expiry)
        func scan(_ payload: SessionPayload, now: Double, expect expected: HandoffError?) throws {
            let seed = VectorSupport.seed("registry/scan/\(operations.count)")
            var result = "ok"
            do {
                _ = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: seed), now: VectorSupport.date(now),
                                             registry: registry)
            } catch {
                result = error.identifier
            }
            guard result == (expected?.identifier ?? "ok") else { throw VectorGenerationError("receiver registry scan: got \(result)") }
            operations.append(.object(["op": .string("scan"), "text": .string(payload.text), "transferID": .hex(payload.transferID.bytes),
                                       "expiry": .number(payload.expiry), "now": .time(now), "skew": .number(30), "seed": .number(seed),
                                       "result": .string(result)]))
        }
        func hasClaimed(_ payload: SessionPayload, _ expected: Bool) throws {
            guard registry.hasClaimed(payload.transferID) == expected else { throw VectorGenerationError("receiver registry hasClaimed") }
            operations.append(.object(["op": .string("hasClaimed"), "transferID": .hex(payload.transferID.bytes), "result": .bool(expected)]))
        }
        func release(_ payload: SessionPayload) {
            registry.release(payload.transferID)
            operations.append(.object(["op": .string("release"), "transferID": .hex(payload.transferID.bytes), "result": .null]))
        }
        func prune(_ now: Double) {
            registry.prune(now: VectorSupport.date(now))
            operations.append(.object(["op": .string("prune"), "now": .time(now), "result": .null]))
        }
        try hasClaimed(qr, false)
        try scan(qr, now: t0 + 10, expect: nil)
        try hasClaimed(qr, true)
        try scan(qr, now: t0 + 11, expect: .alreadyScanned)
        try scan(lowOrder, now: t0 + 12, expect: .lowOrderPublicKey)
        try hasClaimed(lowOrder, false)
        try scan(lowOrder, now: t0 + 13, expect: .lowOrderPublicKey)
        try scan(expired, now: Double(expired.expiry) + 30, expect: .expired)
        try hasClaimed(expired, false)
        release(qr)
        try hasClaimed(qr, false)
        try scan(qr, now: t0 + 20, expect: nil)
        release(lowOrder)
        try hasClaimed(qr, true)
        prune(expiry + 3599.5)
        try hasClaimed(qr, true)
        prune(expiry + 3600)
        try hasClaimed(qr, false)
        try scan(qr, now: expiry + 3600, expect: .expired)
        return .object(["name": .string("receiver-registry-lifecycle"),
                        "description": .string("Claim at S4, alreadyScanned, the claim given back after lowOrderPublicKey, no claim for an expired QR, release, pruning at exactly expiry + 3600."),
                        "operations": .array([JSONValue](operations))])
    }
}
