@_spi(Testing) import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// Two honest devices (a sender and a receiver, the real state machines), their people and
/// apps, a shared clock, an adversarial network between them, and optionally a
/// shoulder-surfer who photographed the QR and runs its own receiver.
///
/// Every ``apply(_:)`` checks the safety properties and throws ``InvariantViolation`` when one
/// breaks; ``finish()`` drives both sessions to their end and checks the final ones:
///
/// 1. The honest receiver's app gets a credential only if both people confirmed, both devices
///    show the same code, the sender accepted the honest hello and every frame authenticated.
/// 2. No account metadata reaches any receiver before the sending person confirmed; the
///    shoulder-surfer learns it only if that person confirmed codes that differ (careless people).
/// 3. Each session reports exactly one terminal outcome; from then on its secrets are zero.
/// 4. A frame changes a session's state only if it is byte-equal to a frame a legitimate peer
///    produced and the session has not accepted it before; otherwise it is ignored and the
///    state (phase, outcome, code) stays as it was.
/// 5. No description, dump, error or frame contains the password or key material.
///
/// Test support only: it uses `InsecureDeterministicRandom` and reads guarded memory through SPI.
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
        /// Scan `dump` output of the sessions and the QR payload at the start and the end
        /// (on by default; the fuzz target turns it off for speed, the tests keep it).
        public var dumpSessions: Bool

        /// The options; by default people are careful, no registries, sessions dumped at the end.
        public init(carelessPeople: Bool = false, useRegistries: Bool = false, dumpEveryAction: Bool = false,
                    dumpSessions: Bool = true) {
            self.carelessPeople = carelessPeople
            self.useRegistries = useRegistries
            self.dumpEveryAction = dumpEveryAction
            self.dumpSessions = dumpSessions
        }
    }

    /// The machines in the world.
    public enum Role: Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The honest sender.
        case sender
        /// The honest receiver.
        case receiver
        /// The shoulder-surfer's receiver.
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
    /// Frames in flight per direction, oldest first.
    public internal(set) var inFlight: [Direction: [InFlightFrame]] = [.toReceiver: [], .toSender: []]
    /// The steps applied so far.
    public internal(set) var trace: [String] = []
    /// What the last delivered frame made its recipient do (empty if it never reached a session).
    public internal(set) var lastFrameActions: [HandoffAction] = []
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
    var finishedOutcome: [Role: TransferOutcome] = [:]
    /// Whether the sending person confirmed (and the sender sent its offer).
    public internal(set) var senderPersonConfirmed = false
    /// Whether the two devices showed the same code when the sending person confirmed.
    public internal(set) var senderConfirmedMatchingCodes = false
    /// Whether the receiving person confirmed (and the receiver sent its accept).
    public internal(set) var receiverPersonConfirmed = false
    /// Whose hello the sender accepted.
    public internal(set) var senderPeer: Role?
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
    var pendingImport: SimulatedAccountStore.Entry?
    var initialSenderStore: [String] = []
    var initialReceiverStore: [String] = []

    /// An existing account on the receiving device that no transfer may touch.
    public static let bystanderAccount = try! AccountMetadata(
        linkID: AccountLinkID(bytes: Array(0xb0...0xbf))!, displayName: "Bob", emailAddress: "bob@example.net",
        username: "bob", imapHost: "mail.example.net", imapPort: 143, imapSecurity: .startTLS)

    /// Starts the sender, shows its QR, and has the honest receiver scan it.
    ///
    /// - Throws: ``InvariantViolation`` if the start already breaks a property.
    public init(scenario: Scenario = .standard, options: Options = Options()) throws(InvariantViolation) {
        self.scenario = scenario
        self.options = options
        self.now = scenario.start
        self.leaks = LeakScanner(password: scenario.password)
        senderRegistry = options.useRegistries ? SenderRegistry() : nil
        receiverRegistry = options.useRegistries ? ReceiverRegistry() : nil
        do {
            sender = try HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous,
                                             random: InsecureDeterministicRandom(seed: scenario.senderSeed),
                                             now: now, registry: senderRegistry)
            let payload = try SessionPayload(text: sender.payload.text)
            let scanned = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: scenario.receiverSeed),
                                                   now: now, registry: receiverRegistry)
            receiver = scanned.receiver
            senderStore.store(scenario.account, password: SecretBytes(utf8: scenario.password))
            receiverStore.store(Self.bystanderAccount, password: SecretBytes(utf8: "bystander-password"))
            initialSenderStore = senderStore.snapshot()
            initialReceiverStore = receiverStore.snapshot()
            leaks.learn(sender.guardedSecrets)
            try leaks.check(text: sender.payload.text, "QR text")
            if options.dumpSessions { try leaks.check(renderingsOf: sender.payload, "QR payload") }
            try absorb(scanned.actions, from: .receiver, trigger: nil)
        } catch let violation as InvariantViolation {
            throw violation
        } catch {
            throw InvariantViolation("the honest start failed: \(error)")
        }
    }

    /// Fails with the current trace.
    func violation(_ message: String) -> InvariantViolation { InvariantViolation(message, trace: trace) }

    /// The machine playing `role`, if it exists.
    func machineState(_ role: Role) -> Observation? {
        switch role {
        case .sender: Observation(state: sender.state, outcome: sender.outcome, code: sender.shortCode)
        case .receiver: Observation(state: receiver.state, outcome: receiver.outcome, code: receiver.shortCode)
        case .attacker: attacker.map { Observation(state: $0.state, outcome: $0.outcome, code: $0.shortCode) }
        }
    }

    /// The guarded buffers of the machine playing `role`.
    func secrets(_ role: Role) -> [SecretBytes] {
        switch role {
        case .sender: sender.guardedSecrets
        case .receiver: receiver.guardedSecrets
        case .attacker: attacker?.guardedSecrets ?? []
        }
    }

    /// What a session exposes that must not change when it ignores a frame or refuses an event.
    struct Observation: Equatable {
        let state: SessionState
        let outcome: TransferOutcome?
        let code: ShortCode?
    }

    func learnSecrets() {
        guard !replaying else { return }
        for role in Role.allCases { leaks.learn(secrets(role)) }
    }

    /// The expiry as a date, and the latest time any device still accepts anything.
    public var senderExpiry: Date { sender.payload.expiryDate }
    /// The time after which every device has expired.
    public var lastAcceptedTime: Date {
        sender.payload.expiryDate.addingTimeInterval(TimeInterval(ReceiverConfiguration.standard.clockSkewTolerance))
    }
}
