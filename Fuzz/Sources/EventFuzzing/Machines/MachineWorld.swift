import AccountHandoff
import AccountHandoffSimulation
import AccountHandoffTestSupport
import Foundation

/// The world of the `FuzzEvents` target: the real sender and the real receiver of one
/// transfer, played by a script of typed events (``MachineEvent``) for both roles: frames of
/// every kind (delivered, dropped, replayed, damaged, forged with the session's real keys by a
/// malicious peer, shaped by hand, foreign), each person's and app's local events, the clock
/// (forwards, backwards, to each deadline, not finite), a second device, the registries
/// (in memory, in files, failing) and probes of the scan and of the renderings.
///
/// Both machines are honest peers of each other, so the world computes every tag, key and
/// transcript hash by running them: a mutated script gets past authentication into the deep
/// states (awaiting the accept, the credential, the receipt, importing) and ends them in each
/// way (expiry, aborts, receipts).
///
/// Checks after every event: a frame never makes a machine throw; an ignored frame changes
/// nothing (phase, outcome, code, account, transcript, deadline); a machine acts only on frames
/// a peer produced, and on each once; a refused local event is a typed misuse error that
/// changes nothing; a password handed to the sender is wiped whatever happens; no frame holds
/// the password or key material; without forged frames, the receiver is offered the real
/// account and handed the real password, and a sender's receipt is the one the receiver sent;
/// no step runs its session's arena past its end (that would trap, Spec 8.5). At the end each machine ended exactly once with every secret zero, and the credential
/// handed to the receiver's app was never wiped or changed by the session.
final class MachineWorld {
    enum Side: Int { case sender = 0, receiver = 1 }

    let fixtures = MachineFixtures.shared
    let tracing: Bool
    var trace: [String] = []

    private(set) var sender: HandoffSender
    private(set) var receiver: HandoffReceiver
    /// The honest receiver's hello (in flight to the sender at the start).
    let hello: [UInt8]
    var senderRegistry: SenderRegistry?
    var receiverRegistry: ReceiverRegistry?
    /// The receiver registry's storage when the setup made it fail on purpose.
    var faultyReceiverStorage: FaultyRegistryStorage?
    var configuration: ReceiverConfiguration = .standard

    var now: Date
    /// Each machine's own clock: the latest time it was handed.
    var machineTime: [Double] = [0, 0]
    /// Frames on their way to each side (index = ``Side``), every frame ever sent to it, the
    /// frames a peer produced (genuine or forged) and those it acted on.
    var inFlight: [[[UInt8]]] = [[], []]
    var history: [[[UInt8]]] = [[], []]
    var produced: [Set<[UInt8]>] = [[], []]
    var acted: [Set<[UInt8]>] = [[], []]
    var forgedTo: [Bool] = [false, false]
    var finishedCount = [0, 0]
    var secondDevice: HandoffReceiver?
    /// The last password the sender accepted, and the statuses of the receipts receivers sent.
    var passwordSent: [UInt8]?
    var receiptsSent: Set<ReceiptStatus> = []
    var delivered: [(credential: SecretBytes, bytes: [UInt8])] = []
    var needles: KeyNeedles
    private var learnedAt: (SenderPhase, ReceiverPhase, Bool)?
    /// Sessions and registries made by probes; ended (and checked) at the end of the input.
    var probeSenders: [HandoffSender] = []
    var probeReceivers: [HandoffReceiver] = []
    /// Whether a probe started a second sender of the world's transfer (after its registry
    /// forgot it), so the registry's record follows that one too.
    var transferStartedTwice = false
    /// The first errors local events were refused with, for the renderings.
    var refusals: [HandoffError] = []

    /// Sets the world up as the script's header says (see ``MachineSetup``).
    init(header: [UInt8], tracing: Bool) throws(InvariantViolation) {
        self.tracing = tracing
        needles = KeyNeedles(password: fixtures.scenario.passwordBytes)
        now = fixtures.scenario.start
        let setup = MachineSetup(header: header)
        do {
            let started = try setup.start(fixtures)
            (sender, receiver, hello) = (started.sender, started.receiver, started.hello)
            (senderRegistry, receiverRegistry, configuration) = (started.senderRegistry, started.receiverRegistry, started.configuration)
            faultyReceiverStorage = started.faultyReceiverStorage
            now = started.start
            if let setupError = started.refusal, tracing { trace.append("setup refused: \(setupError.identifier)") }
        } catch {
            throw InvariantViolation("the world could not start: \(error)")
        }
        machineTime = [now.timeIntervalSince1970, now.timeIntervalSince1970]
        put(hello, to: .sender)
    }

    func violation(_ message: String) -> InvariantViolation { InvariantViolation(message, trace: trace) }

    func note(_ entry: @autoclosure () -> String) {
        if tracing { trace.append(entry()) }
    }

    /// Runs every event, then the end checks.
    func run(_ script: EventScript, maximumEvents: Int = 64) throws(InvariantViolation) {
        for event in script.events.prefix(maximumEvents) {
            try play(event)
            try checkDelivered()
        }
        try finish()
    }

    /// Puts a frame a peer produced on its way to `side`.
    func put(_ frame: [UInt8], to side: Side) {
        inFlight[side.rawValue].append(frame)
        history[side.rawValue].append(frame)
        produced[side.rawValue].insert(frame)
    }

    // MARK: Observations

    struct Observation: Equatable {
        let phase: SessionPhase
        let senderOutcome: SenderOutcome?
        let receiverOutcome: ReceiverOutcome?
        let code: ShortCode?
        let account: AccountMetadata?
        let transcript: [UInt8]?
        let deadline: Date?
    }

    func observation(_ side: Side) -> Observation {
        switch side {
        case .sender:
            Observation(phase: .sender(sender.phase), senderOutcome: sender.outcome, receiverOutcome: nil, code: sender.shortCode,
                        account: nil, transcript: sender.transcriptHash, deadline: sender.nextDeadline)
        case .receiver:
            Observation(phase: .receiver(receiver.phase), senderOutcome: nil, receiverOutcome: receiver.outcome,
                        code: receiver.shortCode, account: receiver.offeredAccount, transcript: receiver.transcriptHash,
                        deadline: receiver.nextDeadline)
        }
    }

    func isFinished(_ side: Side) -> Bool { side == .sender ? sender.phase == .finished : receiver.phase == .finished }

    /// Teaches the needles the sessions' secrets when a phase changed since the last time.
    func learnSecrets() {
        let phases = (sender.phase, receiver.phase, secondDevice != nil)
        if let learnedAt, learnedAt == phases { return }
        learnedAt = phases
        needles.learn(sender.keptSecrets)
        needles.learn(receiver.keptSecrets)
        if let secondDevice { needles.learn(secondDevice.keptSecrets) }
    }

    // MARK: Carrying out actions

    func absorb(_ actions: [SenderAction]) throws(InvariantViolation) {
        learnSecrets()
        for action in actions {
            switch action {
            case .send(let frame):
                try needles.check(bytes: frame, "a frame the sender sent")
                put(frame, to: .receiver)
            case .reply(let frame):
                try needles.check(bytes: frame, "a reply the sender sent")
                secondDeviceReads(frame)
            case .finished(let outcome):
                try noteFinished(.sender)
                if case .completed(let status) = outcome, !forgedTo[Side.sender.rawValue], !receiptsSent.contains(status) {
                    throw violation("the sender completed with \(status.identifier), but the receiver sent no such receipt")
                }
            case .ignored, .askForCode, .codeMismatch, .requestCredential, .anotherDeviceJoined, .startTypedRun, .typedCodeRetired,
                 .typedCodeReplaced, .typedWayWithdrawn, .pairedByTypedCode:
                break
            }
        }
    }

    func absorb(_ actions: [ReceiverAction]) throws(InvariantViolation) {
        learnSecrets()
        for action in actions {
            switch action {
            case .send(let frame):
                try needles.check(bytes: frame, "a frame the receiver sent")
                put(frame, to: .sender)
            case .showAccount(let account, _):
                if !forgedTo[Side.receiver.rawValue], account != fixtures.scenario.account {
                    throw violation("the receiver was offered an account the sender never offered")
                }
            case .deliverAccount(let imported):
                let bytes = imported.credential.revealedBytes()
                if !forgedTo[Side.receiver.rawValue], bytes != passwordSent {
                    throw violation("the receiver was handed a password the sender never sent")
                }
                delivered.append((imported.credential, bytes))
            case .finished:
                try noteFinished(.receiver)
            case .ignored, .showShortCode:
                break
            }
        }
    }

    private func noteFinished(_ side: Side) throws(InvariantViolation) {
        finishedCount[side.rawValue] += 1
        guard finishedCount[side.rawValue] == 1 else { throw violation("the \(side) finished twice") }
        let memory = side == .sender ? sender.memory : receiver.memory
        guard memory.hasEnded else { throw violation("the \(side) finished with secrets in memory") }
    }

    func secondDeviceReads(_ frame: [UInt8]) {
        guard let secondDevice, let actions = try? secondDevice.handle(.frameReceived(frame), now: now).actions else { return }
        for case .send(let reply) in actions { put(reply, to: .sender) }
    }

    /// The app's buffer is never wiped or changed by the session. (A forged password may be
    /// all zero bytes, so the check compares with what was delivered.)
    func checkDelivered() throws(InvariantViolation) {
        for (credential, bytes) in delivered where credential.isWiped || !credential.constantTimeEquals(bytes) {
            throw violation("the session wiped or changed the credential it handed to the app")
        }
    }

    // MARK: The end

    private func finish() throws(InvariantViolation) {
        note("finish")
        now = now.addingTimeInterval(100_000)
        try senderLocal(.tick)
        try receiverLocal(.tick)
        if receiver.phase == .awaitingImportResult { try receiverLocal(.importFinished(.imported)) }
        try checkDelivered()
        guard finishedCount == [1, 1] else { throw violation("the machines did not each end exactly once: \(finishedCount)") }
        guard sender.memory.hasEnded, receiver.memory.hasEnded else { throw violation("secrets left after the end") }
        if let secondDevice {
            _ = try? secondDevice.handle(.tick, now: now)
            if secondDevice.phase == .awaitingImportResult { _ = try? secondDevice.handle(.importFinished(.declined), now: now) }
            guard secondDevice.memory.hasEnded else { throw violation("the second device kept secrets") }
        }
        for probe in probeSenders {
            _ = try? probe.handle(.cancel, now: now)
            guard probe.phase == .finished, probe.memory.hasEnded else {
                throw violation("a probe sender kept secrets after a cancel")
            }
        }
        for probe in probeReceivers {
            _ = try? probe.handle(.cancel, now: now)
            guard probe.phase == .finished, probe.memory.hasEnded else {
                throw violation("a probe receiver kept secrets after a cancel")
            }
        }
        for (credential, _) in delivered { credential.wipe() }
        note("outcomes: sender \(sender.outcome?.identifier ?? "-"), receiver \(receiver.outcome?.identifier ?? "-")")
    }
}

extension MachineWorld.Side: CustomStringConvertible {
    var description: String { self == .sender ? "sender" : "receiver" }
    var other: MachineWorld.Side { self == .sender ? .receiver : .sender }
}
