import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// Two honest devices (a sender and a receiver, the real version-2 state machines), their
/// people and apps, a shared clock, an adversarial network between them, and optionally a
/// shoulder-surfer (or any second device) who photographed the QR and runs its own receiver.
///
/// Every ``apply(_:)`` checks the safety properties and throws ``InvariantViolation`` when one
/// breaks; ``finish()`` drives every session to its end and checks the final ones:
///
/// 1. The honest receiver's app gets a credential only if both people confirmed, the code the
///    sending person typed matched the one the honest receiver shows, the sender accepted the
///    honest hello and every frame authenticated.
/// 2. No account metadata reaches any receiver before the sending person confirmed; the
///    shoulder-surfer learns it only if that person confirmed codes that differ (careless people).
/// 3. Each session reports exactly one terminal outcome; from then on its secrets are zero. The
///    credential handed to the receiver's app belongs to the app: no later step of the session
///    (expiry, a late frame, an abort, the end) wipes or changes it while the import runs.
/// 4. A frame changes a session's state only if it is byte-equal to a frame a legitimate peer
///    produced and the session has not accepted it before; otherwise it is ignored and the
///    state (phase, outcome, code) stays as it was.
/// 5. No description, dump, error or frame contains the password or key material.
/// 6. No code is shown before both contributions to it are fixed: the sender shows one only on
///    accepting a hello, a receiver only on an authenticated reveal from the sender that
///    accepted its own hello, and then both codes are equal. A `reply` or `anotherDeviceJoined`
///    answers only a second device's hello.
/// 7. Outcomes are true on both devices (Spec 6.4.1, ``OutcomeTruth``): the sender says
///    "nothing was sent" (`ended`) exactly when its credential frame never left, the receiver
///    says "nothing was imported" only when its app got nothing, a receipt the sender reports
///    is the one the receiver sent, an ending blamed on the peer is the one the peer chose, and
///    no honest pair ends `failed` other than by transport loss.
///
/// Test support only: it uses `InsecureDeterministicRandom` and reads guarded memory through
/// the package's test hooks.
public final class SimulatedWorld {
    /// How the world behaves.
    public struct Options: Sendable {
        /// People confirm whatever they are told to, even when the two codes differ.
        public var carelessPeople: Bool
        /// Devices keep registries: the sender admits frames through its `SenderRegistry`,
        /// and the receiver refuses a second scan of the same QR.
        public var useRegistries: Bool
        /// Also scan `dump` output of every action (slower; the leak-scan tests turn it on).
        public var dumpEveryAction: Bool
        /// Scan `dump` output of the sessions and the QR payload at the start and the end, and
        /// every action's full reflected description (on by default; the fuzz target turns it
        /// off for speed and scans only the texts the actions carry, the tests keep it).
        public var dumpSessions: Bool
        /// Record every step for failure messages (the fuzz target turns it off and re-runs a
        /// failing input with it on).
        public var tracing: Bool

        /// The options; by default people are careful, no registries, sessions dumped at the end.
        public init(carelessPeople: Bool = false, useRegistries: Bool = false, dumpEveryAction: Bool = false,
                    dumpSessions: Bool = true, tracing: Bool = true) {
            self.carelessPeople = carelessPeople
            self.useRegistries = useRegistries
            self.dumpEveryAction = dumpEveryAction
            self.dumpSessions = dumpSessions
            self.tracing = tracing
        }
    }

    /// The machines in the world.
    public enum Role: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The honest sender.
        case sender
        /// The honest receiver.
        case receiver
        /// The shoulder-surfer's (second device's) receiver.
        case attacker

        /// The role's name.
        public var description: String {
            switch self {
            case .sender: "sender"
            case .receiver: "receiver"
            case .attacker: "attacker"
            }
        }
    }

    /// A frame on the network and who put it there.
    public struct InFlightFrame: Hashable, Sendable {
        /// The bytes as they currently are.
        public var bytes: [UInt8]
        /// Which machine produced it, or `nil` for injected bytes.
        public var origin: Role?
    }

    /// The scenario being played.
    public let scenario: Scenario
    /// The options in force.
    public let options: Options
    /// The honest sender.
    public let sender: HandoffSender
    /// The honest receiver.
    public let receiver: HandoffReceiver
    /// The shoulder-surfer's receiver, once it scanned.
    public internal(set) var attacker: HandoffReceiver?
    /// The sender device's accounts (holds the account being sent).
    public let senderStore = SimulatedAccountStore()
    /// The receiver device's accounts (holds an unrelated account at the start).
    public let receiverStore = SimulatedAccountStore()
    /// The leak scanner every output goes through.
    public let leaks: LeakScanner
    /// The shared clock.
    public internal(set) var now: Date
    /// Frames in flight per direction, oldest first. Frames towards receivers (the sender's
    /// `send` and `reply` frames alike) share one direction: the honest receiver gets them by
    /// ``WorldStep/deliver(_:_:)``, the attacker reads them by ``WorldStep/attackerObserves(_:)``.
    public internal(set) var inFlight: [Direction: [InFlightFrame]] = [.toReceiver: [], .toSender: []]
    /// The steps applied so far.
    public internal(set) var trace: [String] = []
    /// The names of the actions the last delivered frame made its recipient take (empty if it
    /// never reached a session), e.g. `["send", "showShortCode"]` or `["finished(expired)"]`.
    public var lastFrameActions: [String] { lastReaction?.names ?? [] }
    /// How the recipient of the last delivered frame reacted, if it reached a session.
    var lastReaction: FrameReaction?
    /// The error the last delivered frame was ignored with, if it was ignored.
    public internal(set) var lastIgnoredError: HandoffError?
    /// While `true`, steps skip the leak scans (for re-running a prefix that was already
    /// checked step by step); every other property is still checked.
    public var replaying = false {
        didSet { leaks.paused = replaying }
    }

    let senderRegistry: SenderRegistry?
    let receiverRegistry: ReceiverRegistry?
    var produced: [Role: [[UInt8]]] = [:]
    var accepted: [Role: [[UInt8]]] = [:]
    var finishedCount: [Role: Int] = [:]
    var senderOutcome: SenderOutcome?
    var receiverOutcomes: [Role: ReceiverOutcome] = [:]
    /// Whether the sending person confirmed (and the sender sent its offer).
    public internal(set) var senderPersonConfirmed = false
    /// Whether the sender's code equalled the one the honest receiver shows when the sending
    /// person confirmed it.
    public internal(set) var senderConfirmedMatchingCodes = false
    /// Whether the receiving person confirmed (and the receiver sent its accept).
    public internal(set) var receiverPersonConfirmed = false
    /// Whose hello the sender accepted.
    public internal(set) var senderPeer: Role?
    /// Whether the sender's credential frame left the device.
    public internal(set) var credentialLeftSender = false
    /// Whether the sender warned its person that another device joined after the credential left.
    public internal(set) var senderWarnedOfSecondDevice = false
    /// Whether the honest receiver's app got the account and credential.
    public internal(set) var receiverDelivered = false
    /// Whether the receiver's app stored the account.
    public internal(set) var receiverImportCommitted = false
    /// Whether the shoulder-surfer decrypted the account metadata.
    public internal(set) var attackerLearnedAccount = false
    /// Whether the shoulder-surfer decrypted the credential.
    public internal(set) var attackerLearnedCredential = false
    /// Frames refused by the sender's registry before reaching the session.
    public internal(set) var refusedByRegistry = 0
    struct LearnedPhases: Equatable {
        let sender: SenderPhase
        let receiver: ReceiverPhase
        let attacker: ReceiverPhase?
    }

    /// The sessions' phases when the leak scanner last learned their secrets.
    var learnedAtPhases: LearnedPhases?
    /// The credential the receiver's app is importing: the app's buffer, never the session's.
    var pendingImport: ImportedAccount?
    /// The credential the attacker's app holds, if a careless person let it get that far.
    var attackerCredential: SecretBytes?
    var initialSenderStore: [SimulatedAccountStore.Summary] = []
    var initialReceiverStore: [SimulatedAccountStore.Summary] = []
    /// The stores' write counts when the initial snapshots were taken.
    var initialStoreWrites = (sender: 0, receiver: 0)

    /// An existing account on the receiving device that no transfer may touch.
    public static let bystanderAccount = try! AccountMetadata(
        linkID: AccountLinkID(bytes: Array(0xb0...0xbf))!, displayName: "Bob", emailAddress: "bob@example.net",
        username: "bob", imapHost: "mail.example.net", imapPort: 143, imapSecurity: .startTLS)

    /// Starts the sender, shows its QR, and has the honest receiver scan it (for the standard
    /// scenario: copies of ``StartedSessions``, the same state without redoing the key work).
    ///
    /// - Throws: ``InvariantViolation`` if the start already breaks a property.
    public init(scenario: Scenario = .standard, options: Options = Options()) throws(InvariantViolation) {
        self.scenario = scenario
        self.options = options
        self.now = scenario.start
        self.leaks = LeakScanner.forInput(password: scenario.password)
        do {
            senderRegistry = options.useRegistries ? SenderRegistry.inMemory() : nil
            receiverRegistry = options.useRegistries ? ReceiverRegistry.inMemory() : nil
            let scanActions: [ReceiverAction]
            let started = StartedSessions.of(scenario)
            if let started {
                sender = try started.sender.copyAwaitingHello(registry: senderRegistry)
                receiver = try started.receiver.copyAwaitingReveal(registry: receiverRegistry)
                scanActions = [.send(started.hello)]
            } else {
                sender = try HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous,
                                                 random: InsecureDeterministicRandom(seed: scenario.senderSeed),
                                                 now: now, registry: senderRegistry)
                let scanned = try HandoffReceiver.scan(payload: ScannedQR.payload(of: sender.payload.text),
                                                       random: InsecureDeterministicRandom(seed: scenario.receiverSeed),
                                                       now: now, registry: receiverRegistry)
                receiver = scanned.receiver
                scanActions = scanned.step.actions
            }
            let qrText = started?.qrText ?? sender.payload.text
            try senderStore.store(scenario.account, password: TestSecret.make(scenario.passwordBytes))
            try receiverStore.store(Self.bystanderAccount, password: TestSecret.make(Array("bystander-password".utf8)))
            initialSenderStore = senderStore.snapshot()
            initialReceiverStore = receiverStore.snapshot()
            initialStoreWrites = (senderStore.writeCount, receiverStore.writeCount)
            leaks.learn(sender.keptSecrets)
            if started?.passwordCheckedInQRText != scenario.password { try leaks.check(text: qrText, "QR text") }
            if options.dumpSessions { try leaks.check(renderingsOf: sender.payload, "QR payload") }
            try absorb(scanActions, from: .receiver, trigger: nil)
        } catch let violation as InvariantViolation {
            throw violation
        } catch {
            throw InvariantViolation("the honest start failed: \(error)")
        }
    }

    /// Records a step for failure messages.
    func note(_ entry: @autoclosure () -> String) {
        if options.tracing { trace.append(entry()) }
    }

    /// Fails with the current trace.
    func violation(_ message: String) -> InvariantViolation { InvariantViolation(message, trace: trace) }

    /// What a session exposes that must not change when it ignores a frame or refuses an event.
    struct Observation: Equatable {
        let phase: SessionPhase
        let senderOutcome: SenderOutcome?
        let receiverOutcome: ReceiverOutcome?
        let code: ShortCode?
    }

    /// The observable state of the machine playing `role`, if it exists.
    func machineState(_ role: Role) -> Observation? {
        switch role {
        case .sender:
            Observation(phase: .sender(sender.phase), senderOutcome: sender.outcome, receiverOutcome: nil, code: sender.shortCode)
        case .receiver: Self.observation(of: receiver)
        case .attacker: attacker.map(Self.observation(of:))
        }
    }

    private static func observation(of receiver: HandoffReceiver) -> Observation {
        Observation(phase: .receiver(receiver.phase), senderOutcome: nil, receiverOutcome: receiver.outcome, code: receiver.shortCode)
    }

    /// The stable identifier of the outcome the machine playing `role` holds, if it ended.
    func outcomeIdentifier(_ role: Role) -> String? {
        role == .sender ? sender.outcome?.identifier : receiverMachine(role)?.outcome?.identifier
    }

    /// The receiver machine playing `role` (the honest receiver or the attacker).
    func receiverMachine(_ role: Role) -> HandoffReceiver? {
        switch role {
        case .sender: nil
        case .receiver: receiver
        case .attacker: attacker
        }
    }

    /// Whether the machine playing `role` has ended (or does not exist).
    func hasFinished(_ role: Role) -> Bool {
        switch role {
        case .sender: sender.phase == .finished
        case .receiver: receiver.phase == .finished
        case .attacker: attacker.map { $0.phase == .finished } ?? true
        }
    }

    /// The secrets the machine playing `role` keeps in its arena (never the app's delivered
    /// credential).
    func secrets(_ role: Role) -> [SessionSecret] {
        switch role {
        case .sender: sender.keptSecrets
        case .receiver: receiver.keptSecrets
        case .attacker: attacker?.keptSecrets ?? []
        }
    }

    /// Whether the machine playing `role` wiped and gave back its arena (or does not exist).
    func hasWipedItsMemory(_ role: Role) -> Bool {
        switch role {
        case .sender: sender.memory.hasEnded
        case .receiver: receiver.memory.hasEnded
        case .attacker: attacker?.memory.hasEnded ?? true
        }
    }

    /// Teaches the leak scanner every session's secrets. A session gets new long-lived secrets
    /// only with a change of phase (its keys once a hello is accepted), so nothing is read
    /// again while every phase stays as it was at the last call.
    func learnSecrets() {
        guard !replaying else { return }
        let phases = LearnedPhases(sender: sender.phase, receiver: receiver.phase, attacker: attacker?.phase)
        guard phases != learnedAtPhases else { return }
        learnedAtPhases = phases
        leaks.learn(sender.keptSecrets)
        leaks.learn(receiver.keptSecrets)
        if let attacker { leaks.learn(attacker.keptSecrets) }
    }

    /// When the sender's QR expires.
    public var senderExpiry: Date { sender.payload.expiryDate }
    /// When the honest receiver gives up (the expiry plus its clock-skew tolerance).
    public var receiverExpiry: Date { receiver.effectiveExpiry }
    /// When a sender waiting for the receipt gives up (the expiry plus the receipt wait).
    public var receiptDeadline: Date { senderExpiry.addingTimeInterval(TimeInterval(HandoffSender.receiptWaitSeconds)) }
    /// The time from which every deadline of every session has passed (a receiver that is
    /// importing never expires; only its app ends it).
    public var lastAcceptedTime: Date { max(receiptDeadline, receiverExpiry) }
}
