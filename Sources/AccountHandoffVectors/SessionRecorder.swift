import AccountHandoffTestSupport
import Foundation
@_spi(Vectors) import AccountHandoff

/// Drives one scripted session through the real state machines and records every input,
/// action, frame, key and transcript hash as a `sessions.json` entry (Vectors/README.md).
///
/// Parties are named: `sender`, and any number of receivers (`receiver`, `intruder`, ...),
/// each a real ``HandoffReceiver`` that scanned the sender's QR with its own seed.
final class SessionRecorder {
    static let startTime: UInt32 = 1_800_000_000

    let name: String
    let summary: String
    let account: AccountMetadata
    let rendezvous: [UInt8]
    let lifetime: UInt32
    let senderSeed: UInt64
    let sender: HandoffSender
    private let senderPrivateKey: [UInt8]
    private var receivers: [String: HandoffReceiver] = [:]
    private var receiverSetup: [String: JSONValue] = [:]
    private var registries: [String: ReceiverRegistry] = [:]
    private var frames: [[String: JSONValue]] = []
    private var frameIDs: [[UInt8]: Int] = [:]
    private var steps: [JSONValue] = []
    private var handshakes: [JSONValue] = []
    private var shownCodes: [String: JSONValue] = [:]
    /// The last frame each party sent.
    private(set) var lastSent: [String: [UInt8]] = [:]

    init(_ name: String, _ summary: String, lifetime: UInt32 = 180, rendezvousLength: Int = 8) throws {
        self.name = name
        self.summary = summary
        self.lifetime = lifetime
        self.account = try AccountMetadata(linkID: AccountLinkID(bytes: VectorSupport.bytes(seed: VectorSupport.seed(name + "/link"), count: 16))!,
                                           displayName: "Ada Lovelace", emailAddress: "ada@example.org", username: "ada",
                                           imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        self.rendezvous = VectorSupport.bytes(seed: VectorSupport.seed(name + "/rendezvous"), count: rendezvousLength)
        self.senderSeed = VectorSupport.seed(name + "/sender")
        self.sender = try HandoffSender.start(account: account, rendezvous: RendezvousToken(bytes: rendezvous),
                                              configuration: SenderConfiguration(lifetime: lifetime),
                                              random: InsecureDeterministicRandom(seed: senderSeed),
                                              now: Date(timeIntervalSince1970: TimeInterval(Self.startTime)))
        self.senderPrivateKey = sender.vectorSnapshot.privateKey
    }

    var expiry: Int64 { Int64(sender.payload.expiry) }

    // MARK: Driving

    /// `party` scans the sender's QR at `now`.
    func scan(_ party: String = "receiver", at now: Int64, skew: UInt32 = 30, registry: String? = nil) throws {
        let seed = VectorSupport.seed(name + "/" + party)
        var setup: [String: JSONValue] = ["seed": .number(seed), "skew": .number(skew)]
        let registryObject: ReceiverRegistry?
        if let registry {
            setup["registry"] = .string(registry)
            registryObject = registries[registry] ?? ReceiverRegistry()
            registries[registry] = registryObject
        } else {
            registryObject = nil
        }
        if receiverSetup[party] == nil { receiverSetup[party] = .object(setup) }
        var step: [String: JSONValue] = ["actor": .string(party), "now": .int(now), "event": .object(["type": .string("scan")])]
        do {
            let payload = try SessionPayload(text: sender.payload.text)
            let (receiver, actions) = try HandoffReceiver.scan(payload: payload, configuration: ReceiverConfiguration(clockSkewTolerance: skew),
                                                               random: InsecureDeterministicRandom(seed: seed),
                                                               now: Date(timeIntervalSince1970: TimeInterval(now)), registry: registryObject)
            receivers[party] = receiver
            let encoded = try record(actions, by: party, before: nil)
            try recordHandshake(party: party, receiver: receiver, actions: actions)
            step["actions"] = .array(encoded)
            step["after"] = after(party)
        } catch let error as HandoffError {
            step["throws"] = .string(error.identifier)
        }
        steps.append(.object(step))
    }

    /// Feeds `event` to the sender at `now`.
    func sender(_ event: HandoffSender.Event, at now: Int64, note: String? = nil) throws {
        let before = sender.vectorSnapshot
        var step: [String: JSONValue] = ["actor": .string("sender"), "now": .int(now), "event": describe(event)]
        if let note { step["note"] = .string(note) }
        do {
            let actions = try sender.handle(event, now: Date(timeIntervalSince1970: TimeInterval(now)))
            step["actions"] = .array(try record(actions, by: "sender", before: before))
        } catch let error as HandoffError {
            step["throws"] = .string(error.identifier)
        }
        step["after"] = after("sender")
        steps.append(.object(step))
    }

    /// Feeds `event` to receiver `party` at `now`.
    func receiver(_ event: HandoffReceiver.Event, at now: Int64, party: String = "receiver", note: String? = nil) throws {
        let receiver = receivers[party]!
        let before = receiver.vectorSnapshot
        var step: [String: JSONValue] = ["actor": .string(party), "now": .int(now), "event": describe(event)]
        if let note { step["note"] = .string(note) }
        do {
            let actions = try receiver.handle(event, now: Date(timeIntervalSince1970: TimeInterval(now)))
            step["actions"] = .array(try record(actions, by: party, before: before))
        } catch let error as HandoffError {
            step["throws"] = .string(error.identifier)
        }
        step["after"] = after(party)
        steps.append(.object(step))
    }

    /// Delivers the last frame `from` sent to `to`.
    func deliver(from: String, to: String, at now: Int64, note: String? = nil) throws {
        guard let bytes = lastSent[from] else { throw VectorGenerationError("\(name): \(from) sent nothing") }
        try feed(bytes, to: to, at: now, note: note)
    }

    /// Registers `bytes` (made by the script, not by a party) and feeds them to `to`.
    func inject(_ bytes: [UInt8], origin: String, to: String, at now: Int64, note: String? = nil) throws {
        if frameIDs[bytes] == nil { register(bytes, ["origin": .string(origin)]) }
        try feed(bytes, to: to, at: now, note: note)
    }

    private func feed(_ bytes: [UInt8], to: String, at now: Int64, note: String?) throws {
        if to == "sender" { try sender(.frameReceived(bytes), at: now, note: note) } else { try receiver(.frameReceived(bytes), at: now, party: to, note: note) }
    }

    /// The id of a frame that is already recorded.
    func frameID(_ bytes: [UInt8]) -> Int { frameIDs[bytes]! }

    /// Seals a frame with `party`'s current send key, as a misbehaving but key-holding peer
    /// would (for authenticated-but-invalid plaintexts). `transcript` is the hash bound in the AD.
    func forge(by party: String, type: MessageType, sequence: UInt32, plaintext: [UInt8], transcript: [UInt8]) throws -> [UInt8] {
        let snapshot = party == "sender" ? sender.vectorSnapshot : receivers[party]!.vectorSnapshot
        let key = party == "sender" ? snapshot.senderToReceiverKey! : snapshot.receiverToSenderKey!
        let header = VectorPrimitives.frameHeader(type: type, transferID: sender.payload.transferID, sequence: sequence,
                                                  bodyLength: plaintext.count + 16)
        let ad = additionalData(header: header, type: type, transcript: transcript)
        let nonce = VectorPrimitives.nonce(sequence: sequence)
        let body = VectorPrimitives.seal(key: key, nonce: nonce, plaintext: plaintext, additionalData: ad)
        let bytes = header + body
        register(bytes, ["origin": .string("forged by the script with \(party)'s send key"), "sealedBy": .string(party),
                         "type": .string(type.description), "sequence": .number(sequence),
                         "key": .string(party == "sender" ? "s2r" : "r2s"), "nonce": .hex(nonce), "transcriptHash": .hex(transcript),
                         "additionalData": .hex(ad), "plaintext": .hex(plaintext)])
        return bytes
    }

    /// The current transcript hashes of a party: (`TH1`, `TH`).
    func transcripts(_ party: String) -> (handshake: [UInt8], current: [UInt8]) {
        let snapshot = party == "sender" ? sender.vectorSnapshot : receivers[party]!.vectorSnapshot
        return (snapshot.handshakeTranscript!, snapshot.transcript!)
    }

    // MARK: Recording

    private func register(_ bytes: [UInt8], _ fields: [String: JSONValue]) {
        var entry = fields
        entry["id"] = .number(frames.count)
        entry["bytes"] = .hex(bytes)
        frameIDs[bytes] = frames.count
        frames.append(entry)
    }

    private func additionalData(header: [UInt8], type: MessageType, transcript: [UInt8]) -> [UInt8] {
        let expiry = sender.payload.expiry
        var ad = header + [UInt8(expiry >> 24), UInt8(truncatingIfNeeded: expiry >> 16), UInt8(truncatingIfNeeded: expiry >> 8),
                           UInt8(truncatingIfNeeded: expiry)] + transcript
        if [.accept, .credential, .receipt].contains(type) { ad += account.linkID.bytes }
        return ad
    }

    private func record(_ actions: [HandoffAction], by party: String, before: SessionSecretsSnapshot?) throws -> [JSONValue] {
        try actions.map { action in
            switch action {
            case .send(let bytes):
                try annotateSent(bytes, by: party, before: before)
                lastSent[party] = bytes
                return .object(["type": .string("send"), "frame": .number(frameIDs[bytes]!)])
            case .showShortCode(let code):
                shownCodes[party] = .string(code.digits)
                return .object(["type": .string("showShortCode"), "code": .string(code.digits)])
            case .showAccount(let account):
                return .object(["type": .string("showAccount"), "account": VectorSupport.account(account)])
            case .requestCredential:
                return .object(["type": .string("requestCredential")])
            case .deliverAccount(let imported):
                return .object(["type": .string("deliverAccount"), "account": VectorSupport.account(imported.metadata),
                                "credential": .hex(imported.credential.revealedBytes())])
            case .ignored(let error):
                return .object(["type": .string("ignored"), "error": .string(error.identifier)])
            case .finished(let outcome):
                return .object(["type": .string("finished"), "outcome": .string(outcome.identifier)])
            }
        }
    }

    private func annotateSent(_ bytes: [UInt8], by party: String, before: SessionSecretsSnapshot?) throws {
        guard frameIDs[bytes] == nil else { return }
        let frame = try Frame(bytes: bytes)
        var fields: [String: JSONValue] = ["sealedBy": .string(party), "type": .string(frame.type.description),
                                           "sequence": .number(frame.sequence)]
        if frame.type == .hello {
            fields["receiverPublicKey"] = .hex(Array(frame.body[0..<32]))
            fields["helloTag"] = .hex(Array(frame.body[32...]))
            register(bytes, fields)
            return
        }
        guard let before, let th1 = before.handshakeTranscript, let current = before.transcript else {
            throw VectorGenerationError("\(name): encrypted frame without keys")
        }
        let key = party == "sender" ? before.senderToReceiverKey! : before.receiverToSenderKey!
        let transcript = frame.type == .abort ? th1 : current
        let ad = additionalData(header: frame.header, type: frame.type, transcript: transcript)
        let nonce = VectorPrimitives.nonce(sequence: frame.sequence)
        let plaintext: [UInt8]
        do {
            plaintext = try VectorPrimitives.open(key: key, nonce: nonce, sealed: frame.body, additionalData: ad)
        } catch {
            throw VectorGenerationError("\(name): \(party)'s \(frame.type) does not open with the Spec's AD")
        }
        fields["key"] = .string(party == "sender" ? "s2r" : "r2s")
        fields["nonce"] = .hex(nonce)
        fields["transcriptHash"] = .hex(transcript)
        fields["additionalData"] = .hex(ad)
        fields["plaintext"] = .hex(plaintext)
        register(bytes, fields)
    }

    private func after(_ party: String) -> JSONValue {
        if party == "sender" {
            return .object(["state": .string(sender.state.rawValue), "transcript": sender.vectorSnapshot.transcript.map(JSONValue.hex) ?? .null])
        }
        let receiver = receivers[party]!
        return .object(["state": .string(receiver.state.rawValue), "transcript": receiver.vectorSnapshot.transcript.map(JSONValue.hex) ?? .null])
    }

    private func recordHandshake(party: String, receiver: HandoffReceiver, actions: [HandoffAction]) throws {
        let snapshot = receiver.vectorSnapshot
        let payload = sender.payload
        let th0 = VectorPrimitives.sha256([VectorSupport.ascii("AH1 transcript"), payload.binary])
        let hh = VectorPrimitives.sha256([th0, snapshot.publicKey])
        let shared = try VectorPrimitives.x25519(privateKey: snapshot.privateKey, peer: payload.senderPublicKey.bytes)
        let senderSide = try VectorPrimitives.x25519(privateKey: senderPrivateKey, peer: snapshot.publicKey)
        let prk = VectorPrimitives.hkdfExtract(salt: hh, inputKeyMaterial: [shared, payload.challenge])
        func expand(_ label: String, _ length: Int) throws -> [UInt8] {
            try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: VectorSupport.ascii(label), length: length)
        }
        let helloKey = try expand("AH1 hello", 32), s2r = try expand("AH1 s2r", 32), r2s = try expand("AH1 r2s", 32)
        let material = try expand("AH1 code", 64)
        guard case .send(let hello) = actions.first, case .showShortCode(let code) = actions.last,
              let index = VectorPrimitives.acceptedCandidateIndex(material: material),
              VectorPrimitives.shortCode(material: material) == code else {
            throw VectorGenerationError("\(name): scan actions or short code differ from the Spec")
        }
        let tag = VectorPrimitives.hmac(key: helloKey, message: hh)
        let th1 = VectorPrimitives.sha256([th0, hello])
        guard shared == senderSide, helloKey == snapshot.helloKey, s2r == snapshot.senderToReceiverKey,
              r2s == snapshot.receiverToSenderKey, Array(hello[56...]) == tag, th1 == snapshot.handshakeTranscript,
              th0 == sender.vectorInitialTranscript else {
            throw VectorGenerationError("\(name): \(party)'s handshake differs from the Spec's derivation")
        }
        handshakes.append(.object([
            "receiver": .string(party), "receiverPrivateKey": .hex(snapshot.privateKey), "receiverPublicKey": .hex(snapshot.publicKey),
            "th0": .hex(th0), "hh": .hex(hh), "sharedSecret": .hex(shared), "prk": .hex(prk), "helloKey": .hex(helloKey),
            "s2rKey": .hex(s2r), "r2sKey": .hex(r2s), "codeMaterial": .hex(material), "codeCandidateIndex": .number(index),
            "shortCode": VectorSupport.shortCode(code), "helloTag": .hex(tag), "helloFrame": .number(frameIDs[hello]!), "th1": .hex(th1),
        ]))
    }

    private func describe(_ event: HandoffSender.Event) -> JSONValue {
        switch event {
        case .frameReceived(let bytes): .object(["type": .string("frameReceived"), "frame": .number(frameIDs[bytes]!)])
        case .codeConfirmed: .object(["type": .string("codeConfirmed")])
        case .codeRejected: .object(["type": .string("codeRejected")])
        case .cancel: .object(["type": .string("cancel")])
        case .credentialProvided(let secret): .object(["type": .string("credentialProvided"), "credential": .hex(secret.revealedBytes())])
        case .tick: .object(["type": .string("tick")])
        case .transportLost: .object(["type": .string("transportLost")])
        }
    }

    private func describe(_ event: HandoffReceiver.Event) -> JSONValue {
        switch event {
        case .frameReceived(let bytes): .object(["type": .string("frameReceived"), "frame": .number(frameIDs[bytes]!)])
        case .codeConfirmed: .object(["type": .string("codeConfirmed")])
        case .codeRejected: .object(["type": .string("codeRejected")])
        case .cancel: .object(["type": .string("cancel")])
        case .importFinished(let status): .object(["type": .string("importFinished"), "status": .string(status.identifier)])
        case .tick: .object(["type": .string("tick")])
        case .transportLost: .object(["type": .string("transportLost")])
        }
    }

    // MARK: Output

    /// The finished JSON entry.
    func json() -> JSONValue {
        var outcomes: [String: JSONValue] = ["sender": sender.outcome.map { .string($0.identifier) } ?? .null]
        for (party, receiver) in receivers { outcomes[party] = receiver.outcome.map { .string($0.identifier) } ?? .null }
        let payload = sender.payload
        return .object([
            "name": .string(name),
            "description": .string(summary),
            "setup": .object([
                "start": .number(Self.startTime), "lifetime": .number(lifetime), "senderSeed": .number(senderSeed),
                "account": VectorSupport.account(account), "rendezvous": .hex(rendezvous), "receivers": .object(receiverSetup),
            ]),
            "qr": .object([
                "transferID": .hex(payload.transferID.bytes), "expiry": .number(payload.expiry), "challenge": .hex(payload.challenge),
                "senderPrivateKey": .hex(senderPrivateKey), "senderPublicKey": .hex(payload.senderPublicKey.bytes),
                "binary": .hex(payload.binary), "text": .string(payload.text),
                "th0": .hex(VectorPrimitives.sha256([VectorSupport.ascii("AH1 transcript"), payload.binary])),
            ]),
            "handshakes": .array(handshakes),
            "frames": .array(frames.map { .object($0) }),
            "steps": .array(steps),
            "shortCodes": .object(shownCodes),
            "outcomes": .object(outcomes),
        ])
    }
}
