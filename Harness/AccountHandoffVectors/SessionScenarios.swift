import AccountHandoff

/// One scripted session of `sessions.json`.
struct Scenario {
    let name: String
    let summary: String
    var start: Double = VectorSupport.startTime
    var lifetime: UInt32 = 180
    /// The sending party's gate declaration (Spec 3.4).
    var senderGate: GateDeclaration = .asks
    /// The typed way's routes the sending party offers (Spec 6.8); none for the QR way alone.
    var typedRoutes: Set<TypedRoute> = []
    let script: (SessionRecorder) throws -> Void

    init(_ name: String, _ summary: String, start: Double = VectorSupport.startTime, lifetime: UInt32 = 180,
         senderGate: GateDeclaration = .asks, typedRoutes: Set<TypedRoute> = [], _ script: @escaping (SessionRecorder) throws -> Void) {
        self.name = name
        self.summary = summary
        self.start = start
        self.lifetime = lifetime
        self.senderGate = senderGate
        self.typedRoutes = typedRoutes
        self.script = script
    }
}

/// The scripted sessions of `sessions.json`: the happy paths and every failure path of the
/// state tables (Spec 6.1, 6.2) and the error list (Spec 7.2). Times are in seconds from
/// ``VectorSupport/startTime`` (`t0`); the sender's lifetime is 180 s and the receiver's skew
/// tolerance 30 s unless a script says otherwise.
enum SessionScenarios {
    static let t0 = VectorSupport.startTime
    static let password = Array("correct horse battery staple".utf8)

    static func make() throws -> JSONValue {
        var sessions: [JSONValue] = []
        var names = Set<String>()
        for scenario in all {
            guard names.insert(scenario.name).inserted else { throw VectorGenerationError("duplicate scenario \(scenario.name)") }
            let recorder = try SessionRecorder(scenario.name, scenario.summary, start: scenario.start, lifetime: scenario.lifetime,
                                               senderGate: scenario.senderGate, typedRoutes: scenario.typedRoutes)
            try scenario.script(recorder)
            sessions.append(try recorder.json())
        }
        return .object([
            "description": .string("Sender starts (Spec 6.1) and full sessions driven through the real sender and receiver state machines (Spec 4-6), by the QR and by the typed way (6.8): every key, transcript hash, frame, plaintext, action and deadline. Steps are replayed in order; times are Unix seconds."),
            "starts": .array(try StartVectors.make()),
            "sessions": .array(sessions),
        ])
    }

    static var all: [Scenario] {
        happy + rejections + cancels + deliveredUnconfirmed + transportLoss + tampering + senderExpiry + receiverExpiry
            + endings + replays + frameChecks + adversaries + contested + authenticatedInvalid + importing + clocks + misuse
            + typedConfirmation + declinesBeforeTheCredential + newReceipts + expiryTold + gateDeclarations
            + typedWay
    }

    // MARK: Building blocks

    /// The receiver scans and its hello reaches the sender, which reveals and shows the code.
    static func hello(_ r: SessionRecorder) throws {
        try r.scan(at: t0 + 10)
        try r.deliver(from: "receiver", to: "sender", at: t0 + 11)
    }

    /// ... and the reveal reaches the receiver, which shows the code.
    static func reveal(_ r: SessionRecorder) throws {
        try hello(r)
        try r.deliver(from: "sender", to: "receiver", at: t0 + 12)
    }

    /// ... the sending person confirms and the offer reaches the receiver.
    static func offer(_ r: SessionRecorder) throws {
        try reveal(r)
        try r.sender(.accept, at: t0 + 20)
        try r.deliver(from: "sender", to: "receiver", at: t0 + 21)
    }

    /// ... the receiving person confirms and the accept reaches the sender.
    static func accept(_ r: SessionRecorder) throws {
        try offer(r)
        try r.receiver(.accept, at: t0 + 30)
        try r.deliver(from: "receiver", to: "sender", at: t0 + 31)
    }

    /// ... the app hands over the password and the credential reaches the receiver.
    static func credential(_ r: SessionRecorder) throws {
        try accept(r)
        try r.sender(.credential(password), at: t0 + 40)
        try r.deliver(from: "sender", to: "receiver", at: t0 + 41)
    }

    /// ... the import finishes with `status` and the receipt reaches the sender.
    static func complete(_ r: SessionRecorder, _ status: ReceiptStatus) throws {
        try credential(r)
        try r.receiver(.importFinished(status), at: t0 + 50)
        try r.deliver(from: "receiver", to: "sender", at: t0 + 51)
    }

    /// Feeds `to` the last frame `from` sent with byte `index` flipped.
    static func tampered(_ r: SessionRecorder, _ from: String, byte index: Int, to: String, at now: Double) throws {
        let original = r.lastSent[from]!
        try r.inject(VectorSupport.flip(original, at: index), origin: "frame \(r.frameID(original)) with byte \(index) xor 0x01",
                     to: to, at: now)
    }
}
