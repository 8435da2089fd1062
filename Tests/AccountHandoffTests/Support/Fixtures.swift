import Foundation
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Shared inputs for the session tests: a fixed clock, a fixed account and seeded randomness.
enum Fixtures {
    /// The fixed "now" every test starts from (a whole second, so `expiry = start + lifetime`).
    static let startSeconds: Double = 1_800_000_000
    static let start = Date(timeIntervalSince1970: startSeconds)
    /// The default sender lifetime and receiver skew.
    static let lifetime: Double = 180
    static let skew: Double = 30
    /// A marker password that must never leak.
    static let password = "correct-horse-battery-staple-9f27"
    /// The link ID that must arrive unchanged.
    static let linkID = AccountLinkID(uuid: UUID(uuidString: "6F1C2A9E-3B4D-4E5F-8A7B-1C2D3E4F5A6B")!)
    /// The sender's and receiver's random seeds in ``SessionPair``.
    static let senderSeed: UInt64 = 7
    static let receiverSeed: UInt64 = 11

    static let account = try! AccountMetadata(
        linkID: linkID, displayName: "Ada Lovelace", emailAddress: "ada@example.org",
        username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)

    static let rendezvous = try! RendezvousToken(bytes: [0x1f, 0x90, 1, 2, 3, 4, 5, 6, 7, 8])

    /// `start + seconds`.
    static func time(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    /// The first `count` bytes of the deterministic stream of `seed`: the sender draws its nonce
    /// (32 bytes) and then its private key (32 bytes) from it; the receiver its private key.
    static func randomBytes(seed: UInt64, count: Int) -> [UInt8] {
        let random = InsecureDeterministicRandom(seed: seed)
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { random.fill($0) }
        return bytes
    }

    static func secret(_ text: String) -> SecretBytes { try! SecretBytes(utf8: text) }
}

/// Drives a sender and a receiver through the protocol in memory, one step at a time, so a
/// test can stop at any step and inject an event there.
final class SessionPair {
    let sender: HandoffSender
    private(set) var receiver: HandoffReceiver!
    /// Frames sent by each side (`send` actions), in order; `reply` frames separately.
    private(set) var senderFrames: [[UInt8]] = []
    private(set) var receiverFrames: [[UInt8]] = []
    private(set) var senderCode: ShortCode?
    private(set) var receiverCode: ShortCode?
    private(set) var delivered: ImportedAccount?
    private(set) var shownAccount: AccountMetadata?
    /// The actions and deadline of the last step of each side.
    private(set) var lastSenderStep: SenderStep?
    private(set) var lastReceiverStep: ReceiverStep?

    init(seed: UInt64 = Fixtures.senderSeed, lifetime: UInt32 = 180, start: Date = Fixtures.start,
         senderRegistry: SenderRegistry? = nil) throws {
        sender = try HandoffSender.start(
            account: Fixtures.account, rendezvous: Fixtures.rendezvous,
            configuration: SenderConfiguration(lifetime: lifetime),
            random: InsecureDeterministicRandom(seed: seed), now: start, registry: senderRegistry)
    }

    /// The steps of a transfer, in protocol order (Spec 1), and each side's phase after it.
    enum Step: Int, CaseIterable, Comparable {
        case qrShown, scanned, helloAccepted, revealReceived, senderConfirmed, offerReceived, receiverConfirmed,
             acceptReceived, credentialSent, credentialReceived, importFinished, receiptReceived

        static func < (a: Step, b: Step) -> Bool { a.rawValue < b.rawValue }
    }

    /// The last step performed.
    private(set) var completed: Step = .qrShown

    /// Runs the happy path from where it stands up to and including `step`, at time `now`.
    func run(until step: Step, now: Date = Fixtures.start, receiverRegistry: ReceiverRegistry? = nil,
             configuration: ReceiverConfiguration = .standard) throws {
        for current in Step.allCases where current > completed && current <= step {
            try perform(current, now: now, registry: receiverRegistry, configuration: configuration)
            completed = current
        }
    }

    private func perform(_ step: Step, now: Date, registry: ReceiverRegistry?, configuration: ReceiverConfiguration) throws {
        switch step {
        case .qrShown: break
        case .scanned:
            let payload = try SessionPayload(text: sender.payload.text)
            let (created, first) = try HandoffReceiver.scan(
                payload: payload, configuration: configuration, random: InsecureDeterministicRandom(seed: Fixtures.receiverSeed),
                now: now, registry: registry)
            receiver = created
            absorbReceiver(first)
        case .helloAccepted: absorbSender(try sender.handle(.frameReceived(receiverFrames[0]), now: now))
        case .revealReceived: absorbReceiver(try receiver.handle(.frameReceived(senderFrames[0]), now: now))
        case .senderConfirmed: absorbSender(try sender.handle(typedCode, now: now))
        case .offerReceived: absorbReceiver(try receiver.handle(.frameReceived(senderFrames[1]), now: now))
        case .receiverConfirmed: absorbReceiver(try receiver.handle(.accept, now: now))
        case .acceptReceived: absorbSender(try sender.handle(.frameReceived(receiverFrames[1]), now: now))
        case .credentialSent: absorbSender(try sender.handle(.credentialProvided(Fixtures.secret(Fixtures.password)), now: now))
        case .credentialReceived: absorbReceiver(try receiver.handle(.frameReceived(senderFrames[2]), now: now))
        case .importFinished: absorbReceiver(try receiver.handle(.importFinished(.imported), now: now))
        case .receiptReceived: absorbSender(try sender.handle(.frameReceived(receiverFrames[2]), now: now))
        }
    }

    /// Feeds the sender and records what it asked for.
    @discardableResult
    func send(_ event: SenderEvent, at now: Date = Fixtures.start) throws -> SenderStep {
        absorbSender(try sender.handle(event, now: now))
    }

    /// Feeds the receiver and records what it asked for.
    @discardableResult
    func receive(_ event: ReceiverEvent, at now: Date = Fixtures.start) throws -> ReceiverStep {
        absorbReceiver(try receiver.handle(event, now: now))
    }

    @discardableResult
    func absorbSender(_ step: SenderStep) -> SenderStep {
        lastSenderStep = step
        for action in step.actions {
            switch action {
            case .send(let bytes): senderFrames.append(bytes)
            case .askForCode: senderCode = sender.shortCode
            case .reply, .codeMismatch, .requestCredential, .anotherDeviceJoined, .ignored, .finished, .startTypedRun,
                 .typedCodeRetired, .typedCodeReplaced, .typedWayWithdrawn, .pairedByTypedCode: break
            }
        }
        return step
    }

    @discardableResult
    func absorbReceiver(_ step: ReceiverStep) -> ReceiverStep {
        lastReceiverStep = step
        for action in step.actions {
            switch action {
            case .send(let bytes): receiverFrames.append(bytes)
            case .showShortCode(let code): receiverCode = code
            case .showAccount(let account, _): shownAccount = account
            case .deliverAccount(let imported): delivered = imported
            case .ignored, .finished: break
            }
        }
        return step
    }

    /// The sending person types the code the receiving device shows (its code is the
    /// sender's in one session; before the reveal, the sender's own).
    var typedCode: SenderEvent { .codeEntered((receiverCode ?? sender.shortCode)?.digits ?? "000000") }

    /// Whether both sessions wiped and gave back their arenas (``ArenaWipeTests`` proves that
    /// the end of a session leaves its memory all zero).
    var allSessionSecretsWiped: Bool {
        sender.memory.hasEnded && (receiver?.memory.hasEnded ?? true)
    }

    /// The sender's phase for a pair that stopped after `step` on the happy path.
    static func senderPhase(after step: Step) -> SenderPhase {
        switch step {
        case .qrShown, .scanned: .awaitingHello
        case .helloAccepted, .revealReceived: .awaitingCodeConfirmation
        case .senderConfirmed, .offerReceived, .receiverConfirmed: .awaitingAccept
        case .acceptReceived: .awaitingCredential
        case .credentialSent, .credentialReceived, .importFinished: .awaitingReceipt
        case .receiptReceived: .finished
        }
    }

    /// The receiver's phase for a pair that stopped after `step` (from `scanned` on).
    static func receiverPhase(after step: Step) -> ReceiverPhase {
        switch step {
        case .qrShown, .scanned, .helloAccepted: .awaitingReveal
        case .revealReceived, .senderConfirmed: .awaitingOffer
        case .offerReceived: .reviewingOffer
        case .receiverConfirmed, .acceptReceived, .credentialSent: .awaitingCredentialFrame
        case .credentialReceived: .awaitingImportResult
        case .importFinished, .receiptReceived: .finished
        }
    }
}

/// Compact names for assertions on action lists: `send(offer)`, `finished(cancelled.local)`, ...
extension SenderAction {
    var kind: String {
        switch self {
        case .send(let bytes): "send(\(frameType(bytes)))"
        case .reply(let bytes): "reply(\(frameType(bytes)))"
        case .askForCode: "askForCode"
        case .codeMismatch(let remaining): "codeMismatch(\(remaining))"
        case .requestCredential: "requestCredential"
        case .anotherDeviceJoined: "anotherDeviceJoined"
        case .ignored(let error): "ignored(\(error.identifier))"
        case .finished(let outcome): "finished(\(outcome.identifier))"
        case .startTypedRun: "startTypedRun"
        case .typedCodeRetired(_, let wrongGuesses): "typedCodeRetired(\(wrongGuesses))"
        case .typedCodeReplaced: "typedCodeReplaced"
        case .typedWayWithdrawn(let reason): "typedWayWithdrawn(\(reason))"
        case .pairedByTypedCode: "pairedByTypedCode"
        }
    }

    var ignoredError: HandoffError? {
        if case .ignored(let error) = self { return error }
        return nil
    }

    var frame: [UInt8]? {
        switch self {
        case .send(let bytes), .reply(let bytes): bytes
        case .startTypedRun(_, let pakeInit): pakeInit
        case .askForCode, .codeMismatch, .requestCredential, .anotherDeviceJoined, .ignored, .finished, .typedCodeRetired,
             .typedCodeReplaced, .typedWayWithdrawn, .pairedByTypedCode: nil
        }
    }
}

extension ReceiverAction {
    var kind: String {
        switch self {
        case .send(let bytes): "send(\(frameType(bytes)))"
        case .showShortCode: "showShortCode"
        case .showAccount: "showAccount"
        case .deliverAccount: "deliverAccount"
        case .ignored(let error): "ignored(\(error.identifier))"
        case .finished(let outcome): "finished(\(outcome.identifier))"
        }
    }

    var ignoredError: HandoffError? {
        if case .ignored(let error) = self { return error }
        return nil
    }

    var frame: [UInt8]? {
        if case .send(let bytes) = self { return bytes }
        return nil
    }
}

extension SessionStep where Action == SenderAction {
    var kinds: [String] { actions.map(\.kind) }
}

extension SessionStep where Action == ReceiverAction {
    var kinds: [String] { actions.map(\.kind) }
}

func frameType(_ bytes: [UInt8]) -> String {
    (try? Frame(bytes: bytes))?.type.description ?? "?"
}

/// The bytes of a delivered credential (the app's reading, which traps if it were wiped).
func bytes(of secret: SecretBytes) -> [UInt8] { secret.withUnsafeBytes { Array($0) } }
