import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// An event a script feeds to a party; the recorder turns it into the real event type.
enum ScriptEvent {
    case frame([UInt8])
    /// Receiver: the person accepts. Sender: the person types the right code (its own
    /// session's digits, as the receiving screen shows them), recorded as `codeEntered`.
    case accept
    /// Sender: the person types exactly this text.
    case codeTyped(String)
    case reject
    case storeUnavailable
    case notAuthenticated
    case cancel
    case credential([UInt8])
    case importFinished(ReceiptStatus)
    case tick
    case transportLost
    /// Sender, typed way (Spec 6.8): a connection that came by this route waits for its `pakeInit`.
    case typedRunRequested(TypedRoute)
    /// Sender, typed way: the connection of the run with this `sid` closed.
    case typedRunEnded([UInt8])
    /// Sender, typed way: the current nameplate's name is taken on the local network.
    case typedNameTaken
}

/// Drives one scripted session through the real state machines and records every input,
/// action, frame and state as a `sessions.json` entry (Vectors/README.md). Every key,
/// transcript hash, code and AD it records is computed from the Spec's formulas
/// (``Handshake``), and every frame a party seals must open under them.
final class SessionRecorder {
    let name: String
    let summary: String
    private(set) var senders: [String: SenderParty] = [:]
    private var senderOrder: [String] = []
    private var receivers: [String: ReceiverParty] = [:]
    private var registries: [String: ReceiverRegistry] = [:]
    private(set) var handshakes: [Handshake] = []
    private(set) var typedRuns: [TypedRunRecord] = []
    private(set) var typedHandshakes: [TypedHandshake] = []
    /// The runs the senders started, by `sid` (for `typedRunEnded`).
    private var runIDs: [[UInt8]: TypedRunID] = [:]
    private var frames: [[String: JSONValue]] = []
    private var frameIDs: [[UInt8]: Int] = [:]
    private var steps: [JSONValue] = []
    private var shownCodes: [String: String] = [:]
    /// The last frame each party sent with `send`, and the last `reply` of each sender.
    private(set) var lastSent: [String: [UInt8]] = [:]
    private(set) var lastReply: [String: [UInt8]] = [:]
    /// The frames each party sent (`send`, and `startTypedRun`'s `pakeInit`) in its last step, in order.
    private(set) var lastStepSends: [String: [[UInt8]]] = [:]

    init(_ name: String, _ summary: String, start: Double = VectorSupport.startTime, lifetime: UInt32 = 180,
         senderGate: GateDeclaration = .asks, typedRoutes: Set<TypedRoute> = []) throws {
        self.name = name
        self.summary = summary
        try addSender("sender", start: start, lifetime: lifetime, localGate: senderGate, typedRoutes: typedRoutes)
    }

    /// Starts another sending party (the two-session attack).
    func addSender(_ party: String, start: Double = VectorSupport.startTime, lifetime: UInt32 = 180, rendezvousLength: Int = 8,
                   localGate: GateDeclaration = .asks, typedRoutes: Set<TypedRoute> = []) throws {
        senders[party] = try SenderParty(name: party, scenario: name, start: start, lifetime: lifetime, rendezvousLength: rendezvousLength,
                                         localGate: localGate, typedRoutes: typedRoutes)
        senderOrder.append(party)
    }

    /// The expiry of a sender's QR, in seconds.
    func expiry(_ sender: String = "sender") -> Double { Double(senders[sender]!.payload.expiry) }

    /// The code of `sender`'s session, once it accepted a hello: what the receiving screen shows.
    func senderCode(_ sender: String = "sender") throws -> ShortCode {
        guard let code = senders[sender]!.session.shortCode else { throw VectorGenerationError("\(name): \(sender) has no code yet") }
        return code
    }

    /// The account a sender offers.
    func account(_ sender: String = "sender") -> AccountMetadata { senders[sender]!.account }

    /// The pair of `sender` and `receiver`, once the receiver scanned.
    func handshake(_ receiver: String = "receiver", sender: String = "sender") -> Handshake {
        handshakes.first { $0.sender == sender && $0.receiver == receiver }!
    }

    /// A party's current transcript hash.
    func transcript(_ party: String) -> [UInt8]? {
        senders[party]?.session.transcriptHash ?? receivers[party]?.session?.transcriptHash
    }

    /// The id of a frame that is already recorded.
    func frameID(_ bytes: [UInt8]) -> Int { frameIDs[bytes]! }

    // MARK: Driving

    /// The receiver registry named `key`, shared by every party that names it (made on first use).
    private func sharedRegistry(_ key: String) -> ReceiverRegistry {
        if let existing = registries[key] { return existing }
        let made = ReceiverRegistry.inMemory()
        registries[key] = made
        return made
    }

    /// `party` scans the QR of `sender` at `now`.
    func scan(_ party: String = "receiver", of sender: String = "sender", at now: Double, skew: UInt32 = 30,
              registry: String? = nil, localGate: GateDeclaration = .asks) throws {
        let setup = receivers[party] ?? ReceiverParty(name: party, scenario: name, skew: skew, scans: sender, registry: registry,
                                                      localGate: localGate)
        receivers[party] = setup
        let registryObject = setup.registry.map(sharedRegistry)
        var step: [String: JSONValue] = ["actor": .string(party), "now": .time(now), "event": .object(["type": .string("scan")])]
        do {
            let payload = try SessionPayload(text: senders[sender]!.payload.text)
            let (receiver, scanStep) = try HandoffReceiver.scan(payload: payload, configuration: ReceiverConfiguration(clockSkewTolerance: skew),
                                                                random: InsecureDeterministicRandom(seed: setup.seed),
                                                                now: VectorSupport.date(now), registry: registryObject,
                                                                localGate: setup.localGate)
            setup.session = receiver
            let handshake = try Handshake(index: handshakes.count, sender: senders[sender]!, receiver: setup)
            guard scanStep.actions.count == 1, case .send(let hello) = scanStep.actions[0], hello == handshake.helloFrame,
                  receiver.transcriptHash == handshake.th1 else {
                throw VectorGenerationError("\(name): \(party)'s hello differs from the Spec's derivation")
            }
            handshakes.append(handshake)
            register(hello, ["sealedBy": .string(party), "type": .string("hello"), "sequence": .number(0),
                             "handshake": .number(handshake.index), "receiverPublicKey": .hex(handshake.receiverPublicKey),
                             "helloTag": .hex(handshake.helloTag)])
            lastSent[party] = hello
            step["actions"] = .array([.object(["type": .string("send"), "frame": .number(frameIDs[hello]!)])])
            try checkDeadline(scanStep.nextDeadline, party)
            step["after"] = after(party)
        } catch let error as HandoffError {
            step["throws"] = .string(error.identifier)
        }
        steps.append(.object(step))
    }

    /// `party` starts a typed session (Spec 6.8 `startTyped`) with the code its person typed:
    /// read as Spec 12.5 says (a refused text throws, like a refused `startTyped`, and creates no
    /// session), over a connection that came by `route`.
    func startTyped(_ party: String = "receiver", typing text: String, route: TypedRoute, at now: Double, skew: UInt32 = 30,
                    registry: String? = nil, localGate: GateDeclaration = .asks) throws {
        let setup = receivers[party] ?? ReceiverParty(name: party, scenario: name, skew: skew, scans: nil, registry: registry,
                                                      localGate: localGate)
        receivers[party] = setup
        let registryObject = setup.registry.map(sharedRegistry)
        var step: [String: JSONValue] = ["actor": .string(party), "now": .time(now),
                                         "event": .object(["type": .string("startTyped"), "typed": .string(text),
                                                           "route": .string(route.description)])]
        do {
            let code = try TypedCode(entry: text)
            let digits = code.digits
            setup.session = try HandoffReceiver.startTyped(code: code, route: route, configuration: ReceiverConfiguration(clockSkewTolerance: skew),
                                                           random: InsecureDeterministicRandom(seed: setup.seed), now: VectorSupport.date(now),
                                                           registry: registryObject, localGate: setup.localGate)
            setup.typed = (digits, route)
            step["actions"] = .array([])
            try checkDeadline(setup.session?.nextDeadline, party)
            step["after"] = after(party)
        } catch let error as HandoffError {
            step["throws"] = .string(error.identifier)
        }
        steps.append(.object(step))
    }

    /// Feeds every frame `from` sent in its last step, in order, to `to` (a sender pairing by
    /// the typed way sends `pakeConfirm` and the offer in one step).
    func deliverStep(from: String, to: String, at now: Double) throws {
        guard let sent = lastStepSends[from], !sent.isEmpty else { throw VectorGenerationError("\(name): \(from) sent nothing in its last step") }
        for bytes in sent { try feed(bytes, to: to, at: now) }
    }

    /// The typed code `sender` shows now (its digits).
    func typedCode(_ sender: String = "sender") throws -> String {
        guard let code = senders[sender]!.session.typedCode else { throw VectorGenerationError("\(name): \(sender) shows no typed code") }
        return code.digits
    }

    /// The run of `sender` started `index`-th (0 first).
    func typedRun(_ index: Int) -> TypedRunRecord { typedRuns[index] }

    /// Feeds `event` to sending party `party` at `now`.
    func sender(_ event: ScriptEvent, at now: Double, party: String = "sender", note: String? = nil) throws {
        let session = senders[party]!.session
        var event = event
        if case .accept = event { event = .codeTyped(session.shortCode?.digits ?? "000000") }
        try run(party, event, now: now, note: note) { () throws(HandoffError) in
            let real: SenderEvent
            switch event {
            case .frame(let bytes): real = .frameReceived(bytes)
            case .accept: preconditionFailure("resolved to codeTyped above")
            case .codeTyped(let typed): real = .codeEntered(typed)
            case .reject: real = .reject
            case .storeUnavailable: real = .storeUnavailable
            case .notAuthenticated: real = .notAuthenticated
            case .cancel: real = .cancel
            case .credential(let bytes): real = .credentialProvided(try SecretBytes(copying: bytes))
            case .tick: real = .tick
            case .transportLost: real = .transportLost
            case .importFinished: preconditionFailure("importFinished is a receiver event")
            case .typedRunRequested(let route): real = .typedRunRequested(route)
            case .typedRunEnded(let sid):
                guard let run = runIDs[sid] else { preconditionFailure("typedRunEnded of a run that never started") }
                real = .typedRunEnded(run)
            case .typedNameTaken: real = .typedNameTaken
            }
            let step = try session.handle(real, now: VectorSupport.date(now))
            for case .startTypedRun(let run, _) in step.actions { runIDs[run.bytes] = run }
            return (step.actions.map(RecordedAction.init), step.nextDeadline)
        }
    }

    /// Feeds `event` to receiving party `party` at `now`.
    func receiver(_ event: ScriptEvent, at now: Double, party: String = "receiver", note: String? = nil) throws {
        let session = receivers[party]!.session!
        try run(party, event, now: now, note: note) { () throws(HandoffError) in
            let real: ReceiverEvent
            switch event {
            case .frame(let bytes): real = .frameReceived(bytes)
            case .accept: real = .accept
            case .codeTyped: preconditionFailure("codeEntered is a sender event")
            case .reject: real = .reject
            case .storeUnavailable: real = .storeUnavailable
            case .notAuthenticated: real = .notAuthenticated
            case .cancel: real = .cancel
            case .importFinished(let status): real = .importFinished(status)
            case .tick: real = .tick
            case .transportLost: real = .transportLost
            case .credential: preconditionFailure("credentialProvided is a sender event")
            case .typedRunRequested, .typedRunEnded, .typedNameTaken: preconditionFailure("the typed way's events are sender events")
            }
            let step = try session.handle(real, now: VectorSupport.date(now))
            return (step.actions.map(RecordedAction.init), step.nextDeadline)
        }
    }

    /// Delivers the last frame `from` sent (its last `send`) to `to`.
    func deliver(from: String, to: String, at now: Double, note: String? = nil) throws {
        guard let bytes = lastSent[from] else { throw VectorGenerationError("\(name): \(from) sent nothing") }
        try feed(bytes, to: to, at: now, note: note)
    }

    /// Delivers the last `reply` of sender `from` to `to`.
    func deliverReply(from: String = "sender", to: String, at now: Double, note: String? = nil) throws {
        guard let bytes = lastReply[from] else { throw VectorGenerationError("\(name): \(from) replied nothing") }
        try feed(bytes, to: to, at: now, note: note)
    }

    /// Registers `bytes` (made by the script, not by a party) and feeds them to `to`.
    func inject(_ bytes: [UInt8], origin: String, to: String, at now: Double, note: String? = nil) throws {
        if frameIDs[bytes] == nil { register(bytes, ["origin": .string(origin)]) }
        try feed(bytes, to: to, at: now, note: note)
    }

    /// Feeds already recorded or new bytes to a party.
    func feed(_ bytes: [UInt8], to: String, at now: Double, note: String? = nil) throws {
        if frameIDs[bytes] == nil { register(bytes, ["origin": .string("made by the script")]) }
        if senders[to] != nil { try sender(.frame(bytes), at: now, party: to, note: note) } else { try receiver(.frame(bytes), at: now, party: to, note: note) }
    }

    /// Seals `plaintext` with the real keys of the pair `handshake` as the script (not a
    /// party), for frames no honest party would send, such as a wrong reveal at sequence 0.
    func scriptSeal(_ handshake: Handshake, senderToReceiver: Bool, type: MessageType, sequence: UInt32, plaintext: [UInt8],
                    transcript: [UInt8], origin: String) throws -> [UInt8] {
        let header = VectorPrimitives.frameHeader(type: type, transferID: handshake.transferID, sequence: sequence,
                                                  bodyLength: plaintext.count + 16)
        let ad = handshake.additionalData(header: header, type: type, transcript: transcript)
        let nonce = VectorPrimitives.nonce(sequence: sequence)
        let bytes = header + (try VectorPrimitives.seal(key: handshake.key(senderToReceiver: senderToReceiver), nonce: nonce,
                                                        plaintext: plaintext, additionalData: ad))
        register(bytes, ["origin": .string(origin), "type": .string(type.description), "sequence": .number(sequence),
                         "handshake": .number(handshake.index), "key": .string(senderToReceiver ? "s2r" : "r2s"),
                         "nonce": .hex(nonce), "transcriptHash": .hex(transcript), "additionalData": .hex(ad),
                         "plaintext": .hex(plaintext)])
        return bytes
    }

    /// `party` seals `plaintext` as its next frame of `type` with ``HandoffSender/sealForgedFrame(_:plaintext:linkID:)``
    /// (or the receiver's), playing a malicious peer that holds the session keys.
    @discardableResult
    func forge(by party: String, _ type: MessageType, plaintext: [UInt8], linkID: AccountLinkID?, at now: Double) throws -> [UInt8] {
        let before = transcript(party)
        let forged = senders[party].map { $0.session.sealForgedFrame(type, plaintext: plaintext, linkID: linkID) }
            ?? receivers[party]!.session!.sealForgedFrame(type, plaintext: plaintext, linkID: linkID)
        guard let bytes = forged else { throw VectorGenerationError("\(name): \(party) cannot forge a \(type)") }
        try annotateSealed(bytes, by: party, transcriptBefore: before, forgedLinkID: .some(linkID?.bytes ?? []))
        lastSent[party] = bytes
        steps.append(.object(["actor": .string(party), "now": .time(now),
                              "event": .object(["type": .string("forge"), "frameType": .string(type.description),
                                                "plaintext": .hex(plaintext), "linkID": linkID.map { .hex($0.bytes) } ?? .null]),
                              "forged": .number(frameIDs[bytes]!), "after": after(party)]))
        return bytes
    }

    // MARK: Recording

    private func run(_ party: String, _ event: ScriptEvent, now: Double, note: String?,
                     _ body: () throws(HandoffError) -> ([RecordedAction], Date?)) throws {
        let before = transcript(party)
        lastStepSends[party] = []
        var step: [String: JSONValue] = ["actor": .string(party), "now": .time(now), "event": describe(event)]
        if let note { step["note"] = .string(note) }
        do {
            let (actions, deadline) = try body()
            step["actions"] = .array(try actions.map { try record($0, by: party, transcriptBefore: before, event: event) })
            try checkDeadline(deadline, party)
        } catch let error as HandoffError {
            step["throws"] = .string(error.identifier)
        }
        step["after"] = after(party)
        steps.append(.object(step))
    }

    private func checkDeadline(_ deadline: Date?, _ party: String) throws {
        let session = senders[party]?.session.nextDeadline ?? receivers[party]?.session?.nextDeadline
        guard deadline == session else { throw VectorGenerationError("\(name): \(party)'s step deadline differs from its session's") }
    }

    private func register(_ bytes: [UInt8], _ fields: [String: JSONValue]) {
        var entry = fields
        entry["id"] = .number(frames.count)
        entry["bytes"] = .hex(bytes)
        frameIDs[bytes] = frames.count
        frames.append(entry)
    }

    private func record(_ action: RecordedAction, by party: String, transcriptBefore: [UInt8]?, event: ScriptEvent) throws -> JSONValue {
        switch action {
        case .send(let bytes), .reply(let bytes):
            let isReply: Bool
            if case .reply = action { isReply = true } else { isReply = false }
            if try Frame(bytes: bytes).type.isTypedHandshake {
                try annotateTyped(bytes, by: party, event: event)
            } else {
                try annotateSealed(bytes, by: party, transcriptBefore: transcriptBefore, forgedLinkID: nil)
            }
            if isReply { lastReply[party] = bytes } else {
                lastSent[party] = bytes
                lastStepSends[party, default: []].append(bytes)
            }
            return .object(["type": .string(isReply ? "reply" : "send"), "frame": .number(frameIDs[bytes]!)])
        case .showShortCode(let code):
            try checkShownCode(code, by: party, event: event)
            shownCodes[party] = code.digits
            return .object(["type": .string("showShortCode"), "code": .string(code.digits)])
        case .showAccount(let account, let senderGate):
            return .object(["type": .string("showAccount"), "account": VectorSupport.account(account),
                            "senderGate": .number(senderGate.rawValue)])
        case .askForCode:
            return .object(["type": .string("askForCode")])
        case .codeMismatch(let remaining):
            return .object(["type": .string("codeMismatch"), "remainingEntries": .number(remaining)])
        case .requestCredential(let receiverGate):
            return .object(["type": .string("requestCredential"), "receiverGate": .number(receiverGate.rawValue)])
        case .anotherDeviceJoined:
            return .object(["type": .string("anotherDeviceJoined")])
        case .deliverAccount(let account, let credential):
            return .object(["type": .string("deliverAccount"), "account": VectorSupport.account(account), "credential": .hex(credential)])
        case .ignored(let error):
            return .object(["type": .string("ignored"), "error": .string(error)])
        case .finished(let outcome):
            return .object(["type": .string("finished"), "outcome": .string(outcome)])
        case .startTypedRun(let sid, let pakeInit):
            guard case .typedRunRequested(let route) = event else { throw VectorGenerationError("\(name): a run without a request") }
            try registerRun(by: party, sid: sid, pakeInit: pakeInit, route: route)
            lastSent[party] = pakeInit
            lastStepSends[party, default: []].append(pakeInit)
            return .object(["type": .string("startTypedRun"), "run": .hex(sid), "frame": .number(frameIDs[pakeInit]!)])
        case .typedCodeRetired(let code, let wrongGuesses):
            try checkNextTypedCode(code, of: party)
            return .object(["type": .string("typedCodeRetired"), "newCode": .string(code), "wrongGuesses": .number(wrongGuesses)])
        case .typedCodeReplaced(let code):
            try checkNextTypedCode(code, of: party)
            return .object(["type": .string("typedCodeReplaced"), "code": .string(code)])
        case .typedWayWithdrawn(let reason):
            return .object(["type": .string("typedWayWithdrawn"), "reason": .string(reason)])
        case .pairedByTypedCode(let sid):
            return .object(["type": .string("pairedByTypedCode"), "run": .hex(sid)])
        }
    }

    /// A shown code must be the code of the pair whose hello (sender) or reveal (receiver) was fed.
    private func checkShownCode(_ code: ShortCode, by party: String, event: ScriptEvent) throws {
        let pair: Handshake?
        if senders[party] != nil, case .frame(let bytes) = event {
            pair = handshakes.first { $0.sender == party && $0.helloFrame == bytes }
        } else {
            pair = handshakes.first { $0.receiver == party }
        }
        guard let pair, pair.code == code else { throw VectorGenerationError("\(name): \(party) shows a code the Spec does not give") }
    }

    /// A run a sender started: its `pakeInit` must be what its stream and the Spec give.
    private func registerRun(by party: String, sid: [UInt8], pakeInit: [UInt8], route: TypedRoute) throws {
        let sender = senders[party]!
        let (drawnSID, ya) = try sender.drawTypedRun()
        let run = try TypedRunRecord(index: typedRuns.count, sender: sender, code: try typedCode(party), route: route, sid: drawnSID, ya: ya)
        guard drawnSID == sid, run.pakeInit == pakeInit else {
            throw VectorGenerationError("\(name): \(party)'s pakeInit differs from the Spec's derivation (6.8, 12.6, 3.8)")
        }
        typedRuns.append(run)
        register(pakeInit, ["sealedBy": .string(party), "type": .string("pakeInit"), "sequence": .number(0),
                            "typedRun": .number(run.index)])
    }

    /// A new typed code a sender shows must be the next one of its stream (Spec 12.3, 6.8).
    private func checkNextTypedCode(_ code: String, of party: String) throws {
        guard try senders[party]!.drawTypedCode() == code else {
            throw VectorGenerationError("\(name): \(party)'s new typed code is not the next draw of its stream")
        }
    }

    /// Records a `pakeReply` a receiver built, or the `pakeConfirm` or `pakeRefused` a sender
    /// answered one with (Spec 3.8, 4.5, 6.8), after checking it against the Spec's derivation.
    private func annotateTyped(_ bytes: [UInt8], by party: String, event: ScriptEvent) throws {
        guard frameIDs[bytes] == nil else { return }
        guard case .frame(let answered) = event else { throw VectorGenerationError("\(name): a typed frame not answering a frame") }
        let type = try Frame(bytes: bytes).type
        var fields: [String: JSONValue] = ["sealedBy": .string(party), "type": .string(type.description)]
        switch type {
        case .pakeReply:
            guard let run = typedRuns.first(where: { $0.pakeInit == answered }), let receiver = receivers[party], let typed = receiver.typed else {
                throw VectorGenerationError("\(name): \(party) answered a pakeInit no recorded run sent")
            }
            let yb = try VectorPrimitives.cpaceSampleScalar(from: receiver.typedStream)
            let pair = try TypedHandshake(index: typedHandshakes.count, run: run, receiver: party, code: typed.digits, route: typed.route,
                                          yb: yb, linkID: senders[run.sender]!.account.linkID.bytes)
            guard pair.pakeReply == bytes, transcript(party) == pair.th1 else {
                throw VectorGenerationError("\(name): \(party)'s pakeReply or TH1 differs from the Spec's derivation (4.5)")
            }
            typedHandshakes.append(pair)
            fields["sequence"] = .number(0)
            fields["typedHandshake"] = .number(pair.index)
        case .pakeConfirm, .pakeRefused:
            guard let pair = typedHandshakes.first(where: { $0.pakeReply == answered }) else {
                throw VectorGenerationError("\(name): \(party) answered a pakeReply no recorded receiver sent")
            }
            let expected = pair.senderAcceptsTagR ? pair.pakeConfirm
                : VectorPrimitives.frameBytes(type: .pakeRefused, transferID: pair.run.transferID, sequence: 1, body: [])
            guard expected == bytes else { throw VectorGenerationError("\(name): \(party)'s \(type) differs from the Spec's (4.5, 6.8)") }
            fields["sequence"] = .number(1)
            fields["typedHandshake"] = .number(pair.index)
        case .hello, .offer, .accept, .credential, .receipt, .abort, .reveal, .pakeInit:
            throw VectorGenerationError("\(name): \(type) is not a typed answer")
        }
        register(bytes, fields)
    }

    /// Records the fields of a frame `party` sealed: finds the pair whose keys open it with the
    /// AD of Spec 4.3, and checks the transcript update. `forgedLinkID` is the link ID a forge
    /// step bound (empty for none), `nil` for an honest frame.
    private func annotateSealed(_ bytes: [UInt8], by party: String, transcriptBefore: [UInt8]?, forgedLinkID: [UInt8]?) throws {
        let forged = forgedLinkID != nil
        guard frameIDs[bytes] == nil else { return }
        let frame = try Frame(bytes: bytes)
        let isSender = senders[party] != nil
        var opened: [(any SessionPair, [UInt8], [UInt8], [UInt8])] = []
        let pairs: [any SessionPair] = handshakes + typedHandshakes
        for pair in pairs where (isSender ? pair.sender : pair.receiver) == party {
            let bound = frame.type == .abort ? pair.th1 : (transcriptBefore ?? pair.firstSealTranscript)
            let ad = pair.additionalData(header: frame.header, type: frame.type, transcript: bound, boundLinkID: forgedLinkID)
            if let plaintext = try? VectorPrimitives.open(key: pair.key(senderToReceiver: isSender), nonce: VectorPrimitives.nonce(sequence: frame.sequence),
                                                          sealed: frame.body, additionalData: ad) {
                opened.append((pair, bound, ad, plaintext))
            }
        }
        guard opened.count == 1, let (pair, bound, ad, plaintext) = opened.first else {
            throw VectorGenerationError("\(name): \(party)'s \(frame.type) does not open under exactly one pair with the Spec's AD")
        }
        if !forged {
            try checkPlaintext(frame.type, plaintext, pair: pair)
            // A party that finished with this frame (the receipt) holds no transcript any more.
            if frame.type != .abort, let after = transcript(party), after != VectorPrimitives.sha256([bound, bytes]) {
                throw VectorGenerationError("\(name): \(party) did not absorb its \(frame.type) as Spec 4.1 says")
            }
        }
        var fields: [String: JSONValue] = [
            "sealedBy": .string(party), "type": .string(frame.type.description), "sequence": .number(frame.sequence),
            pair.recordField: .number(pair.index), "key": .string(isSender ? "s2r" : "r2s"),
            "nonce": .hex(VectorPrimitives.nonce(sequence: frame.sequence)), "transcriptHash": .hex(bound),
            "additionalData": .hex(ad), "plaintext": .hex(plaintext),
        ]
        if forged { fields["forged"] = .bool(true) }
        register(bytes, fields)
    }

    /// Honest plaintexts are what Spec 3.4-3.6 says.
    private func checkPlaintext(_ type: MessageType, _ plaintext: [UInt8], pair: any SessionPair) throws {
        let sender = senders[pair.sender]!
        switch type {
        case .reveal: guard plaintext == sender.nonce else { throw VectorGenerationError("\(name): reveal is not the nonce") }
        case .offer:
            guard plaintext == VectorPrimitives.offerPlaintext(sender.account, senderGate: sender.localGate) else {
                throw VectorGenerationError("\(name): offer plaintext")
            }
        case .accept:
            guard plaintext.count == 1, let receiver = receivers[pair.receiver], plaintext[0] == receiver.localGate.rawValue else {
                throw VectorGenerationError("\(name): accept plaintext")
            }
        case .receipt: guard plaintext.count == 1, (1...5).contains(plaintext[0]) else { throw VectorGenerationError("\(name): \(type) plaintext") }
        case .abort: guard plaintext.count == 1, (1...7).contains(plaintext[0]) else { throw VectorGenerationError("\(name): \(type) plaintext") }
        case .credential: guard plaintext.count == 1024 else { throw VectorGenerationError("\(name): credential plaintext") }
        case .hello, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused: break
        }
    }

    private func after(_ party: String) -> JSONValue {
        if let party = senders[party] {
            let sender = party.session
            var fields: [String: JSONValue] = ["state": .string(sender.phase.rawValue),
                                               "transcript": sender.transcriptHash.map(JSONValue.hex) ?? .null,
                                               "nextDeadline": VectorSupport.deadline(sender.nextDeadline)]
            if !party.typedRoutes.isEmpty { fields["typedCode"] = sender.typedCode.map { .string($0.digits) } ?? .null }
            return .object(fields)
        }
        let receiver = receivers[party]!.session!
        return .object(["state": .string(receiver.phase.rawValue), "transcript": receiver.transcriptHash.map(JSONValue.hex) ?? .null,
                        "nextDeadline": VectorSupport.deadline(receiver.nextDeadline)])
    }

    private func describe(_ event: ScriptEvent) -> JSONValue {
        switch event {
        case .frame(let bytes): .object(["type": .string("frameReceived"), "frame": .number(frameIDs[bytes]!)])
        case .accept: .object(["type": .string("accept")])
        case .codeTyped(let typed): .object(["type": .string("codeEntered"), "typed": .string(typed)])
        case .reject: .object(["type": .string("reject")])
        case .storeUnavailable: .object(["type": .string("storeUnavailable")])
        case .notAuthenticated: .object(["type": .string("notAuthenticated")])
        case .cancel: .object(["type": .string("cancel")])
        case .credential(let bytes): .object(["type": .string("credentialProvided"), "credential": .hex(bytes)])
        case .importFinished(let status): .object(["type": .string("importFinished"), "status": .string(status.identifier)])
        case .tick: .object(["type": .string("tick")])
        case .transportLost: .object(["type": .string("transportLost")])
        case .typedRunRequested(let route): .object(["type": .string("typedRunRequested"), "route": .string(route.description)])
        case .typedRunEnded(let sid): .object(["type": .string("typedRunEnded"), "run": .hex(sid)])
        case .typedNameTaken: .object(["type": .string("typedNameTaken")])
        }
    }

    // MARK: Output

    /// The finished JSON entry.
    func json() throws -> JSONValue {
        var outcomes: [String: JSONValue] = [:]
        for (party, sender) in senders { outcomes[party] = sender.session.outcome.map { .string($0.identifier) } ?? .null }
        for (party, receiver) in receivers { outcomes[party] = receiver.session?.outcome.map { .string($0.identifier) } ?? .null }
        var qrs: [String: JSONValue] = [:]
        for (party, sender) in senders { qrs[party] = try sender.qrJSON() }
        var typed: [String: JSONValue] = [:]
        if !typedRuns.isEmpty { typed["typedRuns"] = .array(typedRuns.map { $0.json(pakeInitID: frameIDs[$0.pakeInit]!) }) }
        if !typedHandshakes.isEmpty {
            typed["typedHandshakes"] = .array(typedHandshakes.map {
                $0.json(pakeReplyID: frameIDs[$0.pakeReply]!, pakeConfirmID: $0.pakeConfirm.flatMap { frameIDs[$0] })
            })
        }
        return .object([
            "name": .string(name),
            "description": .string(summary),
            "setup": .object(["senders": .object(senders.mapValues(\.setupJSON)), "receivers": .object(receivers.mapValues(\.setupJSON))]),
            "qrs": .object(qrs),
            "handshakes": .array(handshakes.map { $0.json(helloFrameID: frameIDs[$0.helloFrame]!) }),
            "frames": .array(frames.map { .object($0) }),
            "steps": .array(steps),
            "shortCodes": .object(shownCodes.mapValues(JSONValue.string)),
            "outcomes": .object(outcomes),
        ].merging(typed) { first, _ in first })
    }
}

extension MessageType {
    /// The typed way's unencrypted handshake frames (Spec 3.8).
    var isTypedHandshake: Bool {
        switch self {
        case .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused: true
        case .hello, .offer, .accept, .credential, .receipt, .abort, .reveal: false
        }
    }
}

/// A sender or receiver action in one shape, with its payload already made public.
enum RecordedAction {
    case send([UInt8])
    case reply([UInt8])
    case showShortCode(ShortCode)
    case askForCode
    case codeMismatch(Int)
    case showAccount(AccountMetadata, senderGate: GateDeclaration)
    case requestCredential(receiverGate: GateDeclaration)
    case anotherDeviceJoined
    case deliverAccount(AccountMetadata, [UInt8])
    case ignored(String)
    case finished(String)
    case startTypedRun([UInt8], pakeInit: [UInt8])
    case typedCodeRetired(String, wrongGuesses: Int)
    case typedCodeReplaced(String)
    case typedWayWithdrawn(String)
    case pairedByTypedCode([UInt8])

    init(_ action: SenderAction) {
        switch action {
        case .send(let bytes): self = .send(bytes)
        case .reply(let bytes): self = .reply(bytes)
        case .askForCode: self = .askForCode
        case .codeMismatch(let remaining): self = .codeMismatch(remaining)
        case .requestCredential(let receiverGate): self = .requestCredential(receiverGate: receiverGate)
        case .anotherDeviceJoined: self = .anotherDeviceJoined
        case .ignored(let error): self = .ignored(error.identifier)
        case .finished(let outcome): self = .finished(outcome.identifier)
        case .startTypedRun(let run, let pakeInit): self = .startTypedRun(run.bytes, pakeInit: pakeInit)
        case .typedCodeRetired(let code, let wrongGuesses): self = .typedCodeRetired(code.digits, wrongGuesses: wrongGuesses)
        case .typedCodeReplaced(let code): self = .typedCodeReplaced(code.digits)
        case .typedWayWithdrawn(let reason): self = .typedWayWithdrawn(reason.description)
        case .pairedByTypedCode(let run): self = .pairedByTypedCode(run.bytes)
        }
    }

    init(_ action: ReceiverAction) {
        switch action {
        case .send(let bytes): self = .send(bytes)
        case .showShortCode(let code): self = .showShortCode(code)
        case .showAccount(let account, let senderGate): self = .showAccount(account, senderGate: senderGate)
        case .deliverAccount(let imported): self = .deliverAccount(imported.metadata, imported.credential.revealedBytes())
        case .ignored(let error): self = .ignored(error.identifier)
        case .finished(let outcome): self = .finished(outcome.identifier)
        }
    }
}
