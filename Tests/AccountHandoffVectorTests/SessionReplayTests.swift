import AccountHandoffTestSupport
import Foundation
@_spi(Vectors) @_spi(Testing) import AccountHandoff
import Testing

/// Replays every scripted session of `Vectors/sessions.json` through the real state machines:
/// every frame byte, action, error, state, transcript hash and key must be reproduced, and
/// every finished party must have wiped its secrets.
@Suite struct SessionReplayTests {
    static var sessions: [[String: Any]] { (try? VectorFiles.load("sessions.json").objects("sessions")) ?? [] }
    static var names: [String] { sessions.compactMap { $0["name"] as? String } }

    @Test func everyIssueScenarioIsPresent() {
        let names = Self.names
        #expect(names.count >= 50)
        for prefix in ["happy-", "receiver-rejects-", "sender-cancels-", "receiver-cancels-", "tampered-", "expired-", "replayed-",
                       "wrong-code", "mitm-own-key", "contested-second-hello", "transport-lost-"] {
            #expect(names.contains { $0.hasPrefix(prefix) }, "missing \(prefix)")
        }
    }

    @Test(arguments: names) func replay(_ name: String) throws {
        let session = try #require(Self.sessions.first { $0["name"] as? String == name })
        try SessionReplay(session).run()
    }

    @Test func manInTheMiddleShowsDifferentCodes() throws {
        let session = try #require(Self.sessions.first { $0["name"] as? String == "mitm-own-key" })
        let codes = try session.object("shortCodes")
        let sender = try codes.string("sender"), receiver = try codes.string("receiver"), intruder = try codes.string("intruder")
        #expect(sender != receiver)
        #expect(sender == intruder)
        let handshakes = try session.objects("handshakes")
        #expect(handshakes.count == 2)
        #expect(try Set(handshakes.map { try $0.object("shortCode").string("digits") }) == [receiver, intruder])
    }
}

/// One session replay (Vectors/README.md, "sessions.json").
struct SessionReplay {
    let session: [String: Any]
    let name: String
    let frames: [[UInt8]]

    init(_ session: [String: Any]) throws {
        self.session = session
        name = try session.string("name")
        frames = try session.objects("frames").map { try $0.bytes("bytes") }
    }

    static func account(_ json: [String: Any]) throws -> AccountMetadata {
        try AccountMetadata(linkID: AccountLinkID(bytes: try json.bytes("linkID"))!, displayName: try json.string("displayName"),
                            emailAddress: try json.string("emailAddress"), username: try json.string("username"),
                            imapHost: try json.string("imapHost"), imapPort: UInt16(try json.int("imapPort")),
                            imapSecurity: try json.string("imapSecurity") == "tls" ? .tls : .startTLS)
    }

    static func describe(_ account: AccountMetadata) -> String {
        "\(hexString(account.linkID.bytes))|\(account.displayName)|\(account.emailAddress)|\(account.username)|\(account.imapHost)|\(account.imapPort)|\(account.imapSecurity.rawValue)"
    }

    private func describe(_ actions: [HandoffAction]) -> [String] {
        actions.map { action in
            switch action {
            case .send(let bytes): "send \(hexString(bytes))"
            case .showShortCode(let code): "showShortCode \(code.digits)"
            case .showAccount(let account): "showAccount \(Self.describe(account))"
            case .requestCredential: "requestCredential"
            case .deliverAccount(let imported): "deliverAccount \(Self.describe(imported.metadata)) \(hexString(imported.credential.revealedBytes()))"
            case .ignored(let error): "ignored \(error.identifier)"
            case .finished(let outcome): "finished \(outcome.identifier)"
            }
        }
    }

    private func describe(expected: [[String: Any]]) throws -> [String] {
        try expected.map { action in
            let type = try action.string("type")
            switch type {
            case "send": return "send \(hexString(frames[Int(try action.int("frame"))]))"
            case "showShortCode": return "showShortCode \(try action.string("code"))"
            case "showAccount": return "showAccount \(Self.describe(try Self.account(try action.object("account"))))"
            case "requestCredential": return "requestCredential"
            case "deliverAccount":
                return "deliverAccount \(Self.describe(try Self.account(try action.object("account")))) \(try action.string("credential"))"
            case "ignored": return "ignored \(try action.string("error"))"
            case "finished": return "finished \(try action.string("outcome"))"
            default: throw VectorFormatError("unknown action \(type)")
            }
        }
    }

    func run() throws {
        let setup = try session.object("setup")
        let qr = try session.object("qr")
        let rendezvous = try RendezvousToken(bytes: try setup.bytes("rendezvous"))
        let sender = try HandoffSender.start(account: try Self.account(try setup.object("account")), rendezvous: rendezvous,
                                             configuration: SenderConfiguration(lifetime: UInt32(try setup.int("lifetime"))),
                                             random: InsecureDeterministicRandom(seed: UInt64(try setup.int("senderSeed"))),
                                             now: Date(timeIntervalSince1970: TimeInterval(try setup.int("start"))))
        #expect(try sender.payload.binary == qr.bytes("binary"), "\(name): QR binary")
        #expect(try sender.payload.text == qr.string("text"), "\(name): QR text")
        #expect(try sender.vectorSnapshot.privateKey == qr.bytes("senderPrivateKey"), "\(name): sender key")
        #expect(try sender.vectorInitialTranscript == qr.bytes("th0"), "\(name): TH0")

        let receiverSetup = try setup.object("receivers")
        let handshakes = try session.objects("handshakes")
        var receivers: [String: HandoffReceiver] = [:]
        var registries: [String: ReceiverRegistry] = [:]
        var shownCodes: [String: String] = [:]
        for (index, step) in try session.objects("steps").enumerated() {
            let actor = try step.string("actor")
            let event = try step.object("event")
            let eventType = try event.string("type")
            let now = Date(timeIntervalSince1970: TimeInterval(try step.int("now")))
            let context = "\(name) step \(index) (\(actor) \(eventType))"
            var actions: [HandoffAction] = []
            var thrown: String?
            do {
                if eventType == "scan" {
                    let party = try receiverSetup.object(actor)
                    let registry = (party["registry"] as? String).map { name in
                        registries[name] ?? { let made = ReceiverRegistry(); registries[name] = made; return made }()
                    }
                    let (receiver, scanActions) = try HandoffReceiver.scan(
                        payload: SessionPayload(text: try qr.string("text")),
                        configuration: ReceiverConfiguration(clockSkewTolerance: UInt32(try party.int("skew"))),
                        random: InsecureDeterministicRandom(seed: UInt64(try party.int("seed"))), now: now, registry: registry)
                    receivers[actor] = receiver
                    actions = scanActions
                    try checkHandshake(handshakes.first { $0["receiver"] as? String == actor }, receiver: receiver, context: context)
                } else if actor == "sender" {
                    actions = try sender.handle(try senderEvent(event), now: now)
                } else {
                    let receiver = try #require(receivers[actor], "\(context): no such receiver")
                    actions = try receiver.handle(try receiverEvent(event), now: now)
                }
            } catch let error as HandoffError {
                thrown = error.identifier
            }
            if let expectedError = step["throws"] as? String {
                #expect(thrown == expectedError, "\(context): expected to throw")
                continue
            }
            #expect(thrown == nil, "\(context): threw \(thrown ?? "")")
            let expectedActions = try describe(expected: try step.objects("actions"))
            #expect(describe(actions) == expectedActions, "\(context): actions")
            for case .showShortCode(let code) in actions { shownCodes[actor] = code.digits }
            let after = try step.object("after")
            let snapshot = actor == "sender" ? sender.vectorSnapshot : receivers[actor]!.vectorSnapshot
            let state = actor == "sender" ? sender.state : receivers[actor]!.state
            #expect(try state.rawValue == after.string("state"), "\(context): state")
            #expect(snapshot.transcript.map(hexString) == after["transcript"] as? String, "\(context): transcript")
        }

        try checkSealedFrames(expiry: sender.payload.expiry, transferID: sender.payload.transferID, handshakes: handshakes)
        #expect(shownCodes == (session["shortCodes"] as? [String: String]), "\(name): short codes shown")
        let outcomes = try session.object("outcomes")
        #expect(sender.outcome?.identifier == outcomes["sender"] as? String, "\(name): sender outcome")
        for (party, receiver) in receivers {
            #expect(receiver.outcome?.identifier == outcomes[party] as? String, "\(name): \(party) outcome")
        }
        // Spec 6.5: every finished party has wiped every secret it held.
        if sender.outcome != nil { #expect(sender.guardedSecrets.allSatisfy { $0.isAllZero }, "\(name): sender secrets") }
        for (party, receiver) in receivers where receiver.outcome != nil {
            #expect(receiver.guardedSecrets.allSatisfy { $0.isAllZero }, "\(name): \(party) secrets")
        }
    }

    private func checkHandshake(_ handshake: [String: Any]?, receiver: HandoffReceiver, context: String) throws {
        let handshake = try #require(handshake, "\(context): handshake not recorded")
        let snapshot = receiver.vectorSnapshot
        // Spec 4.1, 4.2: recompute the recorded intermediate values from the live keys.
        let th0 = VectorPrimitives.sha256([Array("AH1 transcript".utf8), receiver.payload.binary])
        let hh = VectorPrimitives.sha256([th0, snapshot.publicKey])
        let shared = try VectorPrimitives.x25519(privateKey: snapshot.privateKey, peer: receiver.payload.senderPublicKey.bytes)
        let prk = VectorPrimitives.hkdfExtract(salt: hh, inputKeyMaterial: [shared, receiver.payload.challenge])
        let material = try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: Array("AH1 code".utf8), length: 64)
        let code = try #require(VectorPrimitives.shortCode(material: material))
        let recordedCode = try handshake.object("shortCode")
        #expect(try th0 == handshake.bytes("th0") && hh == handshake.bytes("hh"), "\(context): TH0, HH")
        #expect(try shared == handshake.bytes("sharedSecret") && prk == handshake.bytes("prk"), "\(context): shared secret, PRK")
        #expect(try material == handshake.bytes("codeMaterial"), "\(context): code material")
        #expect(try VectorPrimitives.acceptedCandidateIndex(material: material) == Int(handshake.int("codeCandidateIndex")), "\(context): code index")
        #expect(try code.digits == recordedCode.string("digits") && code.grouped == recordedCode.string("grouped")
                && code.spoken == recordedCode.string("spoken") && Int64(code.value) == recordedCode.int("value"), "\(context): code forms")
        #expect(try VectorPrimitives.hmac(key: snapshot.helloKey ?? [], message: hh) == handshake.bytes("helloTag"), "\(context): hello tag")
        #expect(try frames[Int(handshake.int("helloFrame"))] == VectorPrimitives.frameBytes(
            type: .hello, transferID: receiver.payload.transferID, sequence: 0, body: snapshot.publicKey + handshake.bytes("helloTag")),
                "\(context): hello frame")
        #expect(try snapshot.privateKey == handshake.bytes("receiverPrivateKey"), "\(context): receiver private key")
        #expect(try snapshot.publicKey == handshake.bytes("receiverPublicKey"), "\(context): receiver public key")
        #expect(try snapshot.helloKey == handshake.bytes("helloKey"), "\(context): helloKey")
        #expect(try snapshot.senderToReceiverKey == handshake.bytes("s2rKey"), "\(context): s2rKey")
        #expect(try snapshot.receiverToSenderKey == handshake.bytes("r2sKey"), "\(context): r2sKey")
        #expect(try snapshot.handshakeTranscript == handshake.bytes("th1"), "\(context): TH1")
    }

    /// Spec 4.3: every sealed frame's nonce and AD follow from its fields, and sealing its
    /// plaintext with one of the session's keys of its direction gives exactly its body.
    private func checkSealedFrames(expiry: UInt32, transferID: TransferID, handshakes: [[String: Any]]) throws {
        let linkID = try session.object("setup").object("account").bytes("linkID")
        for record in try session.objects("frames") where record["key"] != nil {
            let id = try record.int("id"), sequence = UInt32(try record.int("sequence"))
            let type = try #require(MessageType.allCases.first { $0.description == (try? record.string("type")) })
            let bytes = try record.bytes("bytes"), plaintext = try record.bytes("plaintext"), ad = try record.bytes("additionalData")
            let header = VectorPrimitives.frameHeader(type: type, transferID: transferID, sequence: sequence, bodyLength: plaintext.count + 16)
            let expiryBytes: [UInt8] = [UInt8(expiry >> 24), UInt8(truncatingIfNeeded: expiry >> 16), UInt8(truncatingIfNeeded: expiry >> 8),
                                        UInt8(truncatingIfNeeded: expiry)]
            let expectedAD = header + expiryBytes + (try record.bytes("transcriptHash")) + ([.accept, .credential, .receipt].contains(type) ? linkID : [])
            #expect(ad == expectedAD, "\(name): frame \(id) additional data")
            #expect(try record.bytes("nonce") == VectorPrimitives.nonce(sequence: sequence), "\(name): frame \(id) nonce")
            let keyName = try record.string("key") == "s2r" ? "s2rKey" : "r2sKey"
            let bodies = try handshakes.map { VectorPrimitives.seal(key: try $0.bytes(keyName), nonce: VectorPrimitives.nonce(sequence: sequence),
                                                                    plaintext: plaintext, additionalData: ad) }
            #expect(bodies.contains { header + $0 == bytes }, "\(name): frame \(id) ciphertext")
        }
    }

    private func frame(_ event: [String: Any]) throws -> [UInt8] { frames[Int(try event.int("frame"))] }

    private func senderEvent(_ event: [String: Any]) throws -> HandoffSender.Event {
        switch try event.string("type") {
        case "frameReceived": .frameReceived(try frame(event))
        case "codeConfirmed": .codeConfirmed
        case "codeRejected": .codeRejected
        case "cancel": .cancel
        case "credentialProvided": .credentialProvided(SecretBytes(copying: try event.bytes("credential")))
        case "tick": .tick
        case "transportLost": .transportLost
        case let other: throw VectorFormatError("unknown sender event \(other)")
        }
    }

    private func receiverEvent(_ event: [String: Any]) throws -> HandoffReceiver.Event {
        switch try event.string("type") {
        case "frameReceived": return .frameReceived(try frame(event))
        case "codeConfirmed": return .codeConfirmed
        case "codeRejected": return .codeRejected
        case "cancel": return .cancel
        case "importFinished":
            let status = try event.string("status")
            guard let value = ReceiptStatus.allCases.first(where: { $0.identifier == status }) else { throw VectorFormatError("status \(status)") }
            return .importFinished(value)
        case "tick": return .tick
        case "transportLost": return .transportLost
        case let other: throw VectorFormatError("unknown receiver event \(other)")
        }
    }
}
