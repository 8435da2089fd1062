import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// One real session (the victim) attacked through its peer: the peer is the real opposite
/// state machine, so it can produce genuine frames, and it can also forge authenticated
/// frames with arbitrary plaintexts (a malicious peer that holds the session keys), including
/// reveals with the right, a damaged or an arbitrary nonce. A second device can scan the same
/// QR and send its own genuine hello.
///
/// Checks on the victim: frames never make it throw; an ignored frame changes nothing; a
/// frame it acts on is one a peer produced (genuine or forged) and is acted on once; a
/// decoded reveal, offer, credential or receipt matches exactly the forged plaintext (strict
/// parsing); refused local events are typed misuse errors that change nothing; a password
/// handed to the sender is wiped whatever happens; the credential a receiver hands to its app
/// is never wiped by the session afterwards; it ends in exactly one terminal state with every
/// secret zero; no frame or error it emits contains key material.
///
/// Test support only: fuzz targets 3 (victim = sender) and 4 (victim = receiver).
public final class VictimHarness {
    let victim: Device
    let scenario: Scenario
    let sender: HandoffSender
    let receiver: HandoffReceiver
    /// The sender's nonce, known from its seed (it is the first 32 bytes the sender draws).
    let nonce: [UInt8]
    /// The honest receiver's hello.
    let hello: [UInt8]
    var secondDevice: HandoffReceiver?
    var now: Date
    var toVictim: [[UInt8]] = []
    var toPeer: [[UInt8]] = []
    var peerProduced: [[UInt8]] = []
    var victimAccepted: [[UInt8]] = []
    var forgedPlaintexts: [(frame: [UInt8], plaintext: [UInt8])] = []
    var deliveredCredential: SecretBytes?
    /// What the delivered credential held when it was handed over.
    var deliveredBytes: [UInt8] = []
    var finishedCount = 0
    /// The deepest phase the victim reached, by its order in the protocol (0 = the first).
    public internal(set) var deepestPhase = 0
    let leaks: LeakScanner
    /// Whether steps are recorded for failure messages (off in the fuzzers, which re-run a
    /// failing input with it on).
    let tracing: Bool
    var trace: [String] = []
    /// Whether a session may hold secrets the leak scanner has not seen yet.
    var secretsMayHaveChanged = true
    /// The two sessions' phases when the scanner last learned their secrets: a session gets new
    /// long-lived secrets only with a change of phase (its keys once a hello is accepted), so
    /// learning again in the same phases would find nothing new.
    var learnedAtPhases: (SenderPhase, ReceiverPhase)?

    /// Starts the scenario's two machines (copies of ``StartedSessions`` for the standard
    /// scenario); the receiver's hello is in flight to the sender.
    public init(victim: Device, scenario: Scenario = .standard, tracing: Bool = true) throws(InvariantViolation) {
        self.victim = victim
        self.tracing = tracing
        self.scenario = scenario
        self.now = scenario.start
        self.leaks = LeakScanner.forInput(password: "\u{0}unused-password-needle\u{0}")
        var nonce = [UInt8](repeating: 0, count: 32)
        nonce.withUnsafeMutableBytes { InsecureDeterministicRandom(seed: scenario.senderSeed).fill($0) }
        self.nonce = nonce
        do {
            if let started = StartedSessions.of(scenario) {
                sender = try started.sender.copyAwaitingHello()
                receiver = try started.receiver.copyAwaitingReveal()
                hello = started.hello
            } else {
                sender = try HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous,
                                                 random: InsecureDeterministicRandom(seed: scenario.senderSeed), now: now)
                let scanned = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: scenario.receiverSeed), now: now)
                receiver = scanned.receiver
                guard case .send(let hello)? = scanned.step.actions.first else { throw InvariantViolation("scan sent no hello") }
                self.hello = hello
            }
            if victim == .sender { deliverable(hello) } else { toPeer.append(hello) }
        } catch let violation as InvariantViolation {
            throw violation
        } catch {
            throw InvariantViolation("the honest start failed: \(error)")
        }
    }

    func deliverable(_ frame: [UInt8]) {
        peerProduced.append(frame)
        toVictim.append(frame)
    }

    struct Observation: Equatable {
        let phase: SessionPhase
        let senderOutcome: SenderOutcome?
        let receiverOutcome: ReceiverOutcome?
        let code: ShortCode?
        let account: AccountMetadata?
    }

    var victimObservation: Observation {
        victim == .sender
            ? Observation(phase: .sender(sender.phase), senderOutcome: sender.outcome, receiverOutcome: nil,
                          code: sender.shortCode, account: nil)
            : Observation(phase: .receiver(receiver.phase), senderOutcome: nil, receiverOutcome: receiver.outcome,
                          code: receiver.shortCode, account: receiver.offeredAccount)
    }

    /// The victim's phase, for spotting the transitions after which it may hold new secrets.
    var victimPhase: SessionPhase { victim == .sender ? .sender(sender.phase) : .receiver(receiver.phase) }

    /// The steps run so far, for failure messages.
    public var steps: [String] { trace }

    /// How the victim's session ended, once it has (its Spec 6.4 identifier).
    public var victimOutcome: String? { victim == .sender ? sender.outcome?.identifier : receiver.outcome?.identifier }

    var victimSecrets: [SessionSecret] { victim == .sender ? sender.keptSecrets : receiver.keptSecrets }

    /// Whether the victim's session wiped and gave back its arena.
    var victimMemoryWiped: Bool { victim == .sender ? sender.memory.hasEnded : receiver.memory.hasEnded }

    func violation(_ message: String) -> InvariantViolation { InvariantViolation("\(victim) victim: \(message)", trace: trace) }

    /// Runs the script in `input` (one byte opcode per step, operands after it), then the end checks.
    ///
    /// - Throws: ``InvariantViolation`` naming the broken property.
    public func run(_ input: inout FuzzInput, maximumSteps: Int = 48) throws(InvariantViolation) {
        var steps = 0
        while !input.isExhausted, steps < maximumSteps {
            try step(&input)
            try checkDeliveredCredential()
            steps += 1
        }
        note("finish")
        now = now.addingTimeInterval(10_000)
        _ = try victimLocal(.tick)
        try checkDeliveredCredential()
        if victim == .receiver, receiver.phase == .awaitingImportResult { _ = try victimLocal(.importImported) }
        guard finishedCount == 1 else { throw violation("did not end in exactly one terminal state") }
        guard victimMemoryWiped else { throw violation("secrets left after the end") }
        deliveredCredential?.wipe()
        if let secondDevice, secondDevice.phase != .finished { _ = try? secondDevice.handle(.tick, now: now) }
    }

    /// The victim's local events, by opcode operand.
    enum LocalEvent: CaseIterable { case confirm, reject, cancel, credential, importImported, importDeclined, tick, transportLost }

    private func step(_ input: inout FuzzInput) throws(InvariantViolation) {
        let opcode = input.byte() % 12
        switch opcode {
        case 0:
            let bytes = input.lengthPrefixed(maximum: Frame.maximumByteCount + 8)
            note("raw(\(bytes.count))")
            try deliverToVictim(bytes)
        case 1:
            let type = input.byte() % 9
            let sequence = UInt32(input.byte() % 6)
            let lengthChoice = input.byte()
            let bodyLength = lengthChoice < 200 ? (MessageType(rawValue: type).map(FrameBytes.typicalBodyLength) ?? 17) : Int(lengthChoice) * 4
            var body = input.bytes(bodyLength)
            body += [UInt8](repeating: 0, count: bodyLength - body.count)
            let frame = FrameBytes.make(type: type, transferID: sender.payload.transferID.bytes, sequence: sequence, body: body)
            note("shaped(t\(type),s\(sequence),\(bodyLength))")
            try deliverToVictim(frame)
        case 2, 3, 4:
            guard !toVictim.isEmpty else { return }
            let index = input.index(below: toVictim.count)
            var frame = toVictim[index]
            if opcode == 2 { toVictim.remove(at: index) }
            if opcode == 4 { frame = FrameBytes.flippingBit(frame, bit: Int(input.uint16())) }
            note(["deliver", "replay", "damaged"][Int(opcode) - 2] + "#\(index)")
            try deliverToVictim(frame)
        case 5:
            guard !toPeer.isEmpty else { return }
            let frame = toPeer.removeFirst()
            note("peerReads")
            peerReads(frame)
        case 6:
            let choice = input.byte() % 5
            note("peerLocal\(choice)")
            peerActs(choice)
        case 7:
            try forge(&input)
        case 8:
            let event = LocalEvent.allCases[input.index(below: LocalEvent.allCases.count)]
            note("local.\(event)")
            let length = Int(input.uint16()) % 1100
            _ = try victimLocal(event, credentialLength: length)
        case 9:
            let seconds = input.byte()
            note("clock+\(seconds)")
            now = now.addingTimeInterval(TimeInterval(seconds) * (seconds > 250 ? 60 : 1))
        case 10:
            let recorded = SessionRecording.foreign.frames
            var frame = recorded[input.index(below: recorded.count)].bytes
            if input.byte() & 1 == 1 { frame.replaceSubrange(2..<18, with: sender.payload.transferID.bytes) }
            note("foreign")
            try deliverToVictim(frame)
        default:
            note("secondDeviceScans")
            try secondDeviceScans()
        }
    }

    /// Records a step for failure messages.
    func note(_ entry: @autoclosure () -> String) {
        if tracing { trace.append(entry()) }
    }

    /// Teaches the leak scanner the sessions' current secrets, if an event ran since it last did.
    func learnSecrets() {
        guard secretsMayHaveChanged else { return }
        secretsMayHaveChanged = false
        let phases = (sender.phase, receiver.phase)
        if let learnedAtPhases, learnedAtPhases == phases { return }
        learnedAtPhases = phases
        leaks.learn(sender.keptSecrets)
        leaks.learn(receiver.keptSecrets)
    }
}
