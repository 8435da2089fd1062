import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// `qr-payload.json` `scanChecks`: the receiver's scan steps S0-S6 (Spec 2.5) in order, with
/// exact and fractional boundaries, and the receiver registry's claim and give-back (S4, S6).
enum ScanCheckVectors {
    /// One scan: the QR, the receiver's clock and skew, and the registry claims before it.
    struct Case {
        let name: String
        let payload: SessionPayload
        let now: Double
        let skew: UInt32
        let registryBefore: [SessionPayload]?
        let expected: HandoffError?
    }

    static func make() throws -> [JSONValue] {
        let payload = try PayloadVectors.seeded("scan", rendezvousLength: 8).payload
        let expiry = Double(payload.expiry)
        let lowOrder = try PayloadVectors.seeded("scan low order", rendezvousLength: 8, senderPublicKey: [UInt8](repeating: 0, count: 32)).payload
        let other = try PayloadVectors.seeded("scan other", rendezvousLength: 8).payload
        let fresh = expiry - 170
        let cases: [Case] = [
            Case(name: "fresh QR, no registry", payload: payload, now: fresh, skew: 30, registryBefore: nil, expected: nil),
            // S0
            Case(name: "S0: now is NaN", payload: payload, now: .nan, skew: 30, registryBefore: nil, expected: .invalidClock),
            Case(name: "S0: now is +infinity", payload: payload, now: .infinity, skew: 30, registryBefore: nil, expected: .invalidClock),
            Case(name: "S0: now is -infinity", payload: payload, now: -.infinity, skew: 30, registryBefore: nil, expected: .invalidClock),
            Case(name: "S0: NaN with a low-order key and the QR already claimed (S0 first)", payload: lowOrder, now: .nan, skew: 30,
                 registryBefore: [lowOrder], expected: .invalidClock),
            Case(name: "S0: skew 121 cannot be configured", payload: payload, now: fresh, skew: 121, registryBefore: nil,
                 expected: .invalidConfiguration),
            Case(name: "S0: now is NaN and skew 121: the configuration first (built before the scan)", payload: payload, now: .nan,
                 skew: 121, registryBefore: nil, expected: .invalidConfiguration),
            Case(name: "S0: skew 121 and an expired QR: the configuration first", payload: payload, now: expiry + 200, skew: 121,
                 registryBefore: nil, expected: .invalidConfiguration),
            Case(name: "S0: skew 121 and an expiry too far: the configuration first", payload: payload, now: expiry - 1000, skew: 121,
                 registryBefore: nil, expected: .invalidConfiguration),
            Case(name: "S0: skew 121 and the QR already claimed: the configuration first", payload: payload, now: fresh, skew: 121,
                 registryBefore: [payload], expected: .invalidConfiguration),
            Case(name: "S0: skew 121 and a low-order key: the configuration first", payload: lowOrder, now: fresh, skew: 121,
                 registryBefore: nil, expected: .invalidConfiguration),
            Case(name: "S0: skew 120 (the maximum) is accepted", payload: payload, now: fresh, skew: 120, registryBefore: nil, expected: nil),
            // S2
            Case(name: "S2: now = expiry + skew - 0.5 (still valid)", payload: payload, now: expiry + 29.5, skew: 30, registryBefore: nil, expected: nil),
            Case(name: "S2: now = expiry + skew (expired)", payload: payload, now: expiry + 30, skew: 30, registryBefore: nil, expected: .expired),
            Case(name: "S2: skew 0, now = expiry - 0.25 (still valid)", payload: payload, now: expiry - 0.25, skew: 0, registryBefore: nil, expected: nil),
            Case(name: "S2: skew 0, now = expiry (expired)", payload: payload, now: expiry, skew: 0, registryBefore: nil, expected: .expired),
            Case(name: "S2: skew 120, now = expiry + 119.5 (still valid)", payload: payload, now: expiry + 119.5, skew: 120, registryBefore: nil, expected: nil),
            Case(name: "S2: skew 120, now = expiry + 120 (expired)", payload: payload, now: expiry + 120, skew: 120, registryBefore: nil, expected: .expired),
            Case(name: "S2: expired with the QR already claimed (S2 before S4)", payload: payload, now: expiry + 30, skew: 30,
                 registryBefore: [payload], expected: .expired),
            Case(name: "S2: expired with a low-order key (S2 before S6)", payload: lowOrder, now: expiry + 30, skew: 30,
                 registryBefore: nil, expected: .expired),
            // S3
            Case(name: "S3: expiry = now + 600 + skew (still valid)", payload: payload, now: expiry - 630, skew: 30, registryBefore: nil, expected: nil),
            Case(name: "S3: expiry = now + 600 + skew + 0.5 (too far)", payload: payload, now: expiry - 630.5, skew: 30, registryBefore: nil,
                 expected: .expiryTooFar),
            Case(name: "S3: skew 0, expiry = now + 600 (still valid)", payload: payload, now: expiry - 600, skew: 0, registryBefore: nil, expected: nil),
            Case(name: "S3: skew 0, expiry = now + 600.25 (too far)", payload: payload, now: expiry - 600.25, skew: 0, registryBefore: nil,
                 expected: .expiryTooFar),
            Case(name: "S3: receiver clock a day behind", payload: payload, now: expiry - 86_400, skew: 30, registryBefore: nil, expected: .expiryTooFar),
            Case(name: "S3: too far with the QR already claimed (S3 before S4)", payload: payload, now: expiry - 631, skew: 30,
                 registryBefore: [payload], expected: .expiryTooFar),
            Case(name: "S3: too far with a low-order key (S3 before S6)", payload: lowOrder, now: expiry - 631, skew: 30,
                 registryBefore: nil, expected: .expiryTooFar),
            // S4
            Case(name: "S4: registry claims the QR", payload: payload, now: fresh, skew: 30, registryBefore: [], expected: nil),
            Case(name: "S4: registry holding another QR claims this one too", payload: payload, now: fresh, skew: 30,
                 registryBefore: [other], expected: nil),
            Case(name: "S4: the QR was already claimed (alreadyScanned)", payload: payload, now: fresh, skew: 30,
                 registryBefore: [payload], expected: .alreadyScanned),
            Case(name: "S4: already claimed and a low-order key (S4 before S6)", payload: lowOrder, now: fresh, skew: 30,
                 registryBefore: [lowOrder], expected: .alreadyScanned),
            // S6
            Case(name: "S6: sender public key 0 (small order), no registry", payload: lowOrder, now: fresh, skew: 30, registryBefore: nil,
                 expected: .lowOrderPublicKey),
            Case(name: "S6: small-order key, the S4 claim is given back", payload: lowOrder, now: fresh, skew: 30, registryBefore: [other],
                 expected: .lowOrderPublicKey),
        ]
        return try cases.map(entry)
    }

    private static func entry(_ check: Case) throws -> JSONValue {
        let seed = VectorSupport.seed("scan/" + check.name)
        let registry = try check.registryBefore.map { try MemoryRegistryStorage.receiverRegistry(claiming: $0).registry }
        var result = "ok"
        do {
            let configuration = try ReceiverConfiguration(clockSkewTolerance: check.skew)
            let scan = { () throws(HandoffError) in
                try HandoffReceiver.scan(payload: check.payload, configuration: configuration, random: InsecureDeterministicRandom(seed: seed),
                                         now: VectorSupport.date(check.now), registry: registry)
            }
            let (receiver, step) = try scan()
            guard step.actions.count == 1, case .send = step.actions[0], receiver.phase == .awaitingReveal else {
                throw VectorGenerationError("scan \(check.name): not a single hello")
            }
        } catch let error as HandoffError {
            result = error.identifier
        }
        guard result == (check.expected?.identifier ?? "ok") else {
            throw VectorGenerationError("scan \(check.name): got \(result), meant \(check.expected?.identifier ?? "ok")")
        }
        var registryJSON: JSONValue = .null
        if let registry, let before = check.registryBefore {
            let after = (before + [check.payload]).filter { registry.hasClaimed($0.transferID) }
            if result == "ok", !after.contains(check.payload) { throw VectorGenerationError("scan \(check.name): no claim") }
            if result == "lowOrderPublicKey", after.contains(check.payload) {
                throw VectorGenerationError("scan \(check.name): claim kept")
            }
            registryJSON = .object(["before": claims(before), "after": claims(after)])
        }
        return .object(["name": .string(check.name), "text": .string(check.payload.text), "now": .time(check.now),
                        "skew": .number(check.skew), "receiverSeed": .number(seed), "registry": registryJSON,
                        "result": .string(result)])
    }

    /// Registry claims as sorted `{transferID, expiry}` objects.
    static func claims(_ payloads: [SessionPayload]) -> JSONValue {
        var seen = Set<[UInt8]>()
        let unique = payloads.filter { seen.insert($0.transferID.bytes).inserted }
        return .array(unique.sorted { $0.transferID.bytes.lexicographicallyPrecedes($1.transferID.bytes) }.map {
            .object(["transferID": .hex($0.transferID.bytes), "expiry": .number($0.expiry)])
        })
    }
}

/// An in-memory ``RegistryStorage`` that starts with chosen records, so a vector can put a
/// receiver registry in a known state without a file.
final class MemoryRegistryStorage: RegistryStorage, @unchecked Sendable {
    // Safety of @unchecked Sendable: the generator uses each storage from one thread only.
    private var records: [RegistryRecord]

    init(records: [RegistryRecord]) { self.records = records }

    func load() throws(RegistryStorageFailure) -> [RegistryRecord] { records }

    func save(_ records: [RegistryRecord]) throws(RegistryStorageFailure) { self.records = records }

    /// A receiver registry that has claimed `payloads`.
    static func receiverRegistry(claiming payloads: [SessionPayload]) throws -> (registry: ReceiverRegistry, storage: MemoryRegistryStorage) {
        let storage = MemoryRegistryStorage(records: payloads.map {
            RegistryRecord(transferID: $0.transferID, expiry: $0.expiry, outcomeIdentifier: nil)
        })
        return (try ReceiverRegistry(storage: storage), storage)
    }
}
