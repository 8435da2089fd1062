import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import Testing

/// One session replay (Vectors/README.md, "sessions.json"): recomputes every recorded derived
/// value from its raw inputs with the Spec's formulas, then drives the real state machines
/// through the steps and checks every action, error, state, transcript hash and deadline.
struct SessionReplay {
    let session: [String: Any]
    let name: String
    let frames: [[UInt8]]
    let frameRecords: [[String: Any]]

    init(_ session: [String: Any]) throws {
        self.session = session
        name = try session.string("name")
        frameRecords = try session.objects("frames")
        frames = try frameRecords.map { try $0.bytes("bytes") }
        for (index, record) in frameRecords.enumerated() { #expect(try record.int("id") == Int64(index), "\(name): frame ids in order") }
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

    // MARK: Running

    func run() throws {
        let setup = try session.object("setup")
        let qrs = try session.object("qrs")
        var senders: [String: HandoffSender] = [:]
        var accounts: [String: AccountMetadata] = [:]
        for (party, value) in try setup.object("senders") {
            let json = try #require(value as? [String: Any])
            let account = try Self.account(try json.object("account"))
            let routes = try ((json["typedRoutes"] as? [String]) ?? []).map { name in
                try #require(TypedRoute.allCases.first { $0.description == name }, "\(name): route \(name)")
            }
            let sender = try HandoffSender.start(account: account, rendezvous: RendezvousToken(bytes: try json.bytes("rendezvous")),
                                                 configuration: SenderConfiguration(lifetime: UInt32(try json.int("lifetime"))),
                                                 random: InsecureDeterministicRandom(seed: UInt64(try json.int("seed"))), now: try json.date("start"),
                                                 typedRoutes: Set(routes),
                                                 localGate: try #require(GateDeclaration(rawValue: UInt8(try json.int("localGate")))))
            try checkQR(try qrs.object(party), sender: sender, seed: UInt64(try json.int("seed")), start: try json.time("start"),
                        lifetime: UInt32(try json.int("lifetime")), party: party)
            // Spec 6.8: the first typed code is drawn after the QR's values.
            #expect(sender.typedCode?.digits == (try qrs.object(party))["typedCode"] as? String, "\(name): \(party)'s typed code")
            senders[party] = sender
            accounts[party] = account
        }
        let handshakes = try session.objects("handshakes")
        for handshake in handshakes { try checkHandshake(handshake, setup: setup, qrs: qrs) }
        let forgedLinkIDs = try forgedLinkIDs()
        try checkSealedFrames(handshakes: handshakes, qrs: qrs, accounts: accounts, forgedLinkIDs: forgedLinkIDs)
        try TypedSessionReplay(self).check(qrs: qrs, accounts: accounts)
        var runs: [[UInt8]: TypedRunID] = [:]

        let receiverSetup = try setup.object("receivers")
        var receivers: [String: HandoffReceiver] = [:]
        var registries: [String: ReceiverRegistry] = [:]
        var shownCodes: [String: String] = [:]
        var delivered: [(credential: SecretBytes, bytes: [UInt8])] = []
        for (index, step) in try session.objects("steps").enumerated() {
            let actor = try step.string("actor")
            let event = try step.object("event")
            let eventType = try event.string("type")
            let now = try step.date("now")
            let context = "\(name) step \(index) (\(actor) \(eventType))"
            var actions: [String] = []
            var deadline: Date?
            var thrown: String?
            if eventType == "forge" {
                try replayForge(step, event: event, sender: senders[actor], receiver: receivers[actor], context: context)
            } else {
                do {
                    if eventType == "startTyped" {
                        let party = try receiverSetup.object(actor)
                        let registry = (party["registry"] as? String).map { sharedRegistry($0, in: &registries) }
                        let route = try #require(TypedRoute.allCases.first { $0.description == (try? event.string("route")) }, "\(context): route")
                        let receiver = try HandoffReceiver.startTyped(
                            code: TypedCode(entry: try event.string("typed")), route: route,
                            configuration: ReceiverConfiguration(clockSkewTolerance: UInt32(try party.int("skew"))),
                            random: InsecureDeterministicRandom(seed: UInt64(try party.int("seed"))), now: now, registry: registry,
                            localGate: try #require(GateDeclaration(rawValue: UInt8(try party.int("localGate")))))
                        receivers[actor] = receiver
                        (actions, deadline) = ([], receiver.nextDeadline)
                    } else if eventType == "scan" {
                        let party = try receiverSetup.object(actor)
                        let registry = (party["registry"] as? String).map { sharedRegistry($0, in: &registries) }
                        let text = try qrs.object(try party.string("scans")).string("text")
                        let (receiver, scanStep) = try HandoffReceiver.scan(
                            payload: SessionPayload(text: text),
                            configuration: ReceiverConfiguration(clockSkewTolerance: UInt32(try party.int("skew"))),
                            random: InsecureDeterministicRandom(seed: UInt64(try party.int("seed"))), now: now, registry: registry,
                            localGate: try #require(GateDeclaration(rawValue: UInt8(try party.int("localGate")))))
                        receivers[actor] = receiver
                        (actions, deadline) = (describe(scanStep.actions), scanStep.nextDeadline)
                    } else if let sender = senders[actor] {
                        let senderEvent = try senderEvent(event, runs: runs)
                        // Spec 6.1: the password handed in is wiped in every case.
                        defer { if case .credentialProvided(let password) = senderEvent { #expect(password.isWiped, "\(context): password wiped") } }
                        let handled = try sender.handle(senderEvent, now: now)
                        (actions, deadline) = (describe(handled.actions), handled.nextDeadline)
                        for case .startTypedRun(let run, _) in handled.actions { runs[run.bytes] = run }
                    } else {
                        let receiver = try #require(receivers[actor], "\(context): no such receiver")
                        let receiverEvent = try receiverEvent(event)
                        let handled = try receiver.handle(receiverEvent, now: now)
                        (actions, deadline) = (describe(handled.actions), handled.nextDeadline)
                        for case .deliverAccount(let imported) in handled.actions {
                            delivered.append((imported.credential, imported.credential.revealedBytes()))
                        }
                    }
                } catch let error as HandoffError {
                    thrown = error.identifier
                }
                #expect(thrown == step["throws"] as? String, "\(context): thrown error")
                if step["throws"] == nil {
                    #expect(actions == (try describe(expected: try step.objects("actions"))), "\(context): actions")
                    #expect(deadline.map(\.timeIntervalSince1970) == (try step.object("after").optionalTime("nextDeadline")),
                            "\(context): step deadline")
                }
                for action in actions where action.hasPrefix("showShortCode ") { shownCodes[actor] = String(action.dropFirst(14)) }
            }
            guard let after = step["after"] as? [String: Any] else {
                #expect(["scan", "startTyped"].contains(eventType) && thrown != nil, "\(context): only a failed scan or start has no 'after'")
                continue
            }
            let (state, transcript, nextDeadline): (String, [UInt8]?, Date?)
            if let sender = senders[actor] {
                (state, transcript, nextDeadline) = (sender.phase.rawValue, sender.transcriptHash, sender.nextDeadline)
            } else {
                let receiver = try #require(receivers[actor])
                (state, transcript, nextDeadline) = (receiver.phase.rawValue, receiver.transcriptHash, receiver.nextDeadline)
            }
            #expect(try state == after.string("state"), "\(context): state")
            #expect(transcript.map(hexString) == after["transcript"] as? String, "\(context): transcript")
            #expect(nextDeadline.map(\.timeIntervalSince1970) == (try after.optionalTime("nextDeadline")), "\(context): next deadline")
            if let sender = senders[actor], after.keys.contains("typedCode") {
                #expect(sender.typedCode?.digits == after["typedCode"] as? String, "\(context): typed code shown")
            }
        }

        #expect(shownCodes == (session["shortCodes"] as? [String: String]), "\(name): short codes shown")
        // Spec 6.5: a delivered credential is the app's; nothing the session did later wiped it.
        for (credential, bytes) in delivered {
            #expect(!credential.isWiped && credential.revealedBytes() == bytes, "\(name): delivered credential intact")
        }
        let outcomes = try session.object("outcomes")
        for (party, sender) in senders {
            #expect(sender.outcome?.identifier == outcomes[party] as? String, "\(name): \(party) outcome")
            // Spec 6.5, 8.5: a finished party has wiped its arena and given it back.
            if sender.outcome != nil { #expect(sender.memory.hasEnded, "\(name): \(party) secrets wiped") }
        }
        for party in receiverSetup.keys {
            #expect(receivers[party]?.outcome?.identifier == outcomes[party] as? String, "\(name): \(party) outcome")
            if let receiver = receivers[party], receiver.outcome != nil {
                #expect(receiver.memory.hasEnded, "\(name): \(party) secrets wiped")
            }
        }
    }

    /// A forge step: the party's real session seals the frame; the bytes must be the recorded ones.
    private func replayForge(_ step: [String: Any], event: [String: Any], sender: HandoffSender?, receiver: HandoffReceiver?,
                             context: String) throws {
        let type = try #require(MessageType.allCases.first { $0.description == (try? event.string("frameType")) })
        let linkID = (event["linkID"] as? String).flatMap(hexBytes).flatMap(AccountLinkID.init(bytes:))
        let plaintext = try event.bytes("plaintext")
        let bytes = sender?.sealForgedFrame(type, plaintext: plaintext, linkID: linkID)
            ?? receiver?.sealForgedFrame(type, plaintext: plaintext, linkID: linkID)
        #expect(try bytes == frames[Int(step.int("forged"))], "\(context): forged frame")
    }

    /// The receiver registry named `key`, shared by every party that names it (made on first use).
    private func sharedRegistry(_ key: String, in registries: inout [String: ReceiverRegistry]) -> ReceiverRegistry {
        if let existing = registries[key] { return existing }
        let made = ReceiverRegistry.inMemory()
        registries[key] = made
        return made
    }

    // MARK: Derived values

    private func checkQR(_ qr: [String: Any], sender: HandoffSender, seed: UInt64, start: Double, lifetime: UInt32, party: String) throws {
        let payload = sender.payload
        let context = "\(name): \(party)'s QR"
        var stream = [UInt8](repeating: 0, count: 64)
        stream.withUnsafeMutableBytes { InsecureDeterministicRandom(seed: seed).fill($0) }
        // Spec 2.1: the nonce, then the private key, from the seed's stream.
        #expect(try Array(stream[0..<32]) == qr.bytes("nonce") && Array(stream[32...]) == qr.bytes("senderPrivateKey"), "\(context): draws")
        #expect(try VectorPrimitives.commitment(nonce: qr.bytes("nonce")) == qr.bytes("commitment") && payload.commitment == qr.bytes("commitment"),
                "\(context): commitment")
        #expect(try VectorPrimitives.x25519PublicKey(privateKey: qr.bytes("senderPrivateKey")) == qr.bytes("senderPublicKey")
                && payload.senderPublicKey.bytes == qr.bytes("senderPublicKey"), "\(context): public key")
        #expect(try payload.expiry == UInt32(qr.int("expiry")) && payload.expiry == UInt32(start.rounded(.down)) + lifetime, "\(context): expiry")
        #expect(try payload.binary == qr.bytes("binary") && payload.text == qr.string("text"), "\(context): encodings")
        let transferID = Array(VectorPrimitives.sha256([Array("AH4 transfer ID".utf8), payload.binary]).prefix(16))
        #expect(try transferID == qr.bytes("transferID") && payload.transferID.bytes == transferID, "\(context): transfer ID")
        #expect(try VectorPrimitives.sha256([Array("AH4 transcript".utf8), payload.binary]) == qr.bytes("th0"), "\(context): TH0")
    }

    /// Spec 4.1, 4.2, 4.4, 5.1: every recorded value of a pair follows from the two private keys,
    /// the QR and the nonce.
    private func checkHandshake(_ handshake: [String: Any], setup: [String: Any], qrs: [String: Any]) throws {
        let receiverName = try handshake.string("receiver")
        let context = "\(name): handshake of \(receiverName)"
        let qr = try qrs.object(try handshake.string("sender"))
        let receiverSeed = UInt64(try setup.object("receivers").object(receiverName).int("seed"))
        var privateKey = [UInt8](repeating: 0, count: 32)
        privateKey.withUnsafeMutableBytes { InsecureDeterministicRandom(seed: receiverSeed).fill($0) }
        #expect(try privateKey == handshake.bytes("receiverPrivateKey"), "\(context): receiver draws its key (S5)")
        let publicKey = try VectorPrimitives.x25519PublicKey(privateKey: privateKey)
        let th0 = try qr.bytes("th0")
        let hh = VectorPrimitives.sha256([th0, publicKey])
        let shared = try VectorPrimitives.x25519(privateKey: privateKey, peer: try qr.bytes("senderPublicKey"))
        #expect(try VectorPrimitives.x25519(privateKey: try qr.bytes("senderPrivateKey"), peer: publicKey) == shared, "\(context): DH")
        let prk = VectorPrimitives.hkdfExtract(salt: hh, inputKeyMaterial: [shared, try qr.bytes("commitment")])
        func expand(_ key: [UInt8], _ label: String, _ length: Int) throws -> [UInt8] {
            try VectorPrimitives.hkdfExpand(pseudorandomKey: key, info: Array(label.utf8), length: length)
        }
        let codeKey = try expand(prk, "AH4 code key", 32)
        let helloKey = try expand(prk, "AH4 hello", 32)
        let tag = VectorPrimitives.hmac(key: helloKey, message: hh)
        let hello = VectorPrimitives.frameBytes(type: .hello, transferID: TransferID(bytes: try qr.bytes("transferID"))!, sequence: 0,
                                                body: publicKey + tag)
        let th1 = VectorPrimitives.sha256([th0, hello])
        let codePRK = VectorPrimitives.hkdfExtract(salt: th1, inputKeyMaterial: [codeKey, try qr.bytes("nonce")])
        let material = try expand(codePRK, "AH4 code", 64)
        let code = try #require(VectorPrimitives.shortCode(material: material))
        let recordedCode = try handshake.object("shortCode")
        #expect(try publicKey == handshake.bytes("receiverPublicKey") && hh == handshake.bytes("hh"), "\(context): HH")
        #expect(try shared == handshake.bytes("sharedSecret") && prk == handshake.bytes("prk"), "\(context): PRK")
        #expect(try helloKey == handshake.bytes("helloKey") && expand(prk, "AH4 s2r", 32) == handshake.bytes("s2rKey")
                && expand(prk, "AH4 r2s", 32) == handshake.bytes("r2sKey") && codeKey == handshake.bytes("codeKey"), "\(context): keys")
        #expect(try tag == handshake.bytes("helloTag") && hello == frames[Int(handshake.int("helloFrame"))], "\(context): hello")
        #expect(try th1 == handshake.bytes("th1"), "\(context): TH1")
        #expect(try codePRK == handshake.bytes("codePRK") && material == handshake.bytes("codeMaterial"), "\(context): code material")
        #expect(try VectorPrimitives.acceptedCandidateIndex(material: material) == Int(handshake.int("codeCandidateIndex")), "\(context): index")
        #expect(try code.digits == recordedCode.string("digits") && code.grouped == recordedCode.string("grouped")
                && code.spoken == recordedCode.string("spoken") && Int64(code.value) == recordedCode.int("value"), "\(context): code forms")
    }

    /// The link ID each forge step bound, by frame id.
    private func forgedLinkIDs() throws -> [Int: [UInt8]] {
        var result: [Int: [UInt8]] = [:]
        for step in try session.objects("steps") where (try? step.object("event").string("type")) == "forge" {
            result[Int(try step.int("forged"))] = (try step.object("event")["linkID"] as? String).flatMap(hexBytes) ?? []
        }
        return result
    }

    /// Spec 4.3: every sealed frame's nonce and AD follow from its fields, and sealing its
    /// plaintext with its pair's key gives exactly its body.
    private func checkSealedFrames(handshakes: [[String: Any]], qrs: [String: Any], accounts: [String: AccountMetadata],
                                   forgedLinkIDs: [Int: [UInt8]]) throws {
        for record in frameRecords where record["key"] != nil && record["handshake"] != nil {
            let id = Int(try record.int("id")), sequence = UInt32(try record.int("sequence"))
            let context = "\(name): frame \(id)"
            let type = try #require(MessageType.allCases.first { $0.description == (try? record.string("type")) })
            let pair = handshakes[Int(try record.int("handshake"))]
            let sender = try pair.string("sender")
            let qr = try qrs.object(sender)
            let plaintext = try record.bytes("plaintext"), ad = try record.bytes("additionalData")
            let header = VectorPrimitives.frameHeader(type: type, transferID: TransferID(bytes: try qr.bytes("transferID"))!, sequence: sequence,
                                                      bodyLength: plaintext.count + 16)
            let binds = [.accept, .credential, .receipt].contains(type)
            let linkID = forgedLinkIDs[id] ?? accounts[sender]!.linkID.bytes
            let expiry = bigEndian(UInt32(try qr.int("expiry")))
            #expect(try ad == header + expiry + record.bytes("transcriptHash") + (binds ? linkID : []), "\(context): additional data")
            if type == .abort { #expect(try record.bytes("transcriptHash") == pair.bytes("th1"), "\(context): aborts bind TH1") }
            #expect(try record.bytes("nonce") == VectorPrimitives.nonce(sequence: sequence), "\(context): nonce")
            #expect(try record.bytes("nonce") == [0, 0, 0, 0, 0, 0, 0, 0] + bigEndian(sequence), "\(context): nonce layout")
            let key = try pair.bytes(try record.string("key") == "s2r" ? "s2rKey" : "r2sKey")
            #expect(try header + VectorPrimitives.seal(key: key, nonce: VectorPrimitives.nonce(sequence: sequence), plaintext: plaintext,
                                                       additionalData: ad) == frames[id], "\(context): ciphertext")
        }
    }

    // MARK: Events and actions

    private func frame(_ event: [String: Any]) throws -> [UInt8] { frames[Int(try event.int("frame"))] }

    private func senderEvent(_ event: [String: Any], runs: [[UInt8]: TypedRunID]) throws -> SenderEvent {
        switch try event.string("type") {
        case "typedRunRequested": .typedRunRequested(try #require(TypedRoute.allCases.first { $0.description == (try? event.string("route")) }))
        case "typedRunEnded": .typedRunEnded(try #require(runs[try event.bytes("run")], "\(name): typedRunEnded of a run never started"))
        case "typedNameTaken": .typedNameTaken
        case "frameReceived": .frameReceived(try frame(event))
        case "codeEntered": .codeEntered(try event.string("typed"))
        case "reject": .reject
        case "notAuthenticated": .notAuthenticated
        case "storeUnavailable": .storeUnavailable
        case "cancel": .cancel
        case "credentialProvided": .credentialProvided(try SecretBytes(copying: try event.bytes("credential")))
        case "tick": .tick
        case "transportLost": .transportLost
        case let other: throw VectorFormatError("unknown sender event \(other)")
        }
    }

    private func receiverEvent(_ event: [String: Any]) throws -> ReceiverEvent {
        switch try event.string("type") {
        case "frameReceived": return .frameReceived(try frame(event))
        case "accept": return .accept
        case "reject": return .reject
        case "notAuthenticated": return .notAuthenticated
        case "storeUnavailable": return .storeUnavailable
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

    private func describe(_ actions: [SenderAction]) -> [String] {
        actions.map { action in
            switch action {
            case .send(let bytes): "send \(hexString(bytes))"
            case .reply(let bytes): "reply \(hexString(bytes))"
            case .askForCode: "askForCode"
            case .codeMismatch(let remaining): "codeMismatch \(remaining)"
            case .requestCredential(let receiverGate): "requestCredential \(receiverGate.rawValue)"
            case .anotherDeviceJoined: "anotherDeviceJoined"
            case .ignored(let error): "ignored \(error.identifier)"
            case .finished(let outcome): "finished \(outcome.identifier)"
            case .startTypedRun(let run, let pakeInit): "startTypedRun \(run) \(hexString(pakeInit))"
            case .typedCodeRetired(let code, let wrongGuesses): "typedCodeRetired \(code.digits) \(wrongGuesses)"
            case .typedCodeReplaced(let code): "typedCodeReplaced \(code.digits)"
            case .typedWayWithdrawn(let reason): "typedWayWithdrawn \(reason)"
            case .pairedByTypedCode(let run): "pairedByTypedCode \(run)"
            }
        }
    }

    private func describe(_ actions: [ReceiverAction]) -> [String] {
        actions.map { action in
            switch action {
            case .send(let bytes): "send \(hexString(bytes))"
            case .showShortCode(let code): "showShortCode \(code.digits)"
            case .showAccount(let account, let senderGate): "showAccount \(Self.describe(account)) \(senderGate.rawValue)"
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
            case "send", "reply": return "\(type) \(hexString(frames[Int(try action.int("frame"))]))"
            case "showShortCode": return "showShortCode \(try action.string("code"))"
            case "showAccount":
                return "showAccount \(Self.describe(try Self.account(try action.object("account")))) \(try action.int("senderGate"))"
            case "requestCredential": return "requestCredential \(try action.int("receiverGate"))"
            case "anotherDeviceJoined", "askForCode": return type
            case "codeMismatch": return "codeMismatch \(try action.int("remainingEntries"))"
            case "deliverAccount":
                return "deliverAccount \(Self.describe(try Self.account(try action.object("account")))) \(try action.string("credential"))"
            case "ignored": return "ignored \(try action.string("error"))"
            case "startTypedRun": return "startTypedRun \(try action.string("run")) \(hexString(frames[Int(try action.int("frame"))]))"
            case "typedCodeRetired": return "typedCodeRetired \(try action.string("newCode")) \(try action.int("wrongGuesses"))"
            case "typedCodeReplaced": return "typedCodeReplaced \(try action.string("code"))"
            case "typedWayWithdrawn": return "typedWayWithdrawn \(try action.string("reason"))"
            case "pairedByTypedCode": return "pairedByTypedCode \(try action.string("run"))"
            case "finished": return "finished \(try action.string("outcome"))"
            default: throw VectorFormatError("unknown action \(type)")
            }
        }
    }
}
