import Foundation
@_spi(Testing) @testable import AccountHandoff
import AccountHandoffTestSupport

/// Shared inputs for the session tests: a fixed clock, a fixed account and seeded randomness.
enum Fixtures {
    /// The fixed "now" every test starts from.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    /// A marker password that must never leak.
    static let password = "correct-horse-battery-staple-9f27"
    /// The link ID that must arrive unchanged.
    static let linkID = AccountLinkID(uuid: UUID(uuidString: "6F1C2A9E-3B4D-4E5F-8A7B-1C2D3E4F5A6B")!)

    static let account = try! AccountMetadata(
        linkID: linkID, displayName: "Ada Lovelace", emailAddress: "ada@example.org",
        username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)

    static let rendezvous = try! RendezvousToken(bytes: [0x1f, 0x90, 1, 2, 3, 4, 5, 6, 7, 8])

    static func time(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
}

/// Drives a sender and a receiver through the protocol in memory, one step at a time, so a
/// test can stop at any state and inject an event there.
final class SessionPair {
    let sender: HandoffSender
    var receiver: HandoffReceiver!
    /// Frames sent by each side, in order.
    private(set) var senderFrames: [[UInt8]] = []
    private(set) var receiverFrames: [[UInt8]] = []
    private(set) var senderCode: ShortCode?
    private(set) var receiverCode: ShortCode?
    private(set) var delivered: ImportedAccount?
    private(set) var shownAccount: AccountMetadata?

    init(seed: UInt64 = 7, lifetime: UInt32 = 180, senderRegistry: SenderRegistry? = nil) throws {
        sender = try HandoffSender.start(
            account: Fixtures.account, rendezvous: Fixtures.rendezvous,
            configuration: SenderConfiguration(lifetime: lifetime),
            random: InsecureDeterministicRandom(seed: seed), now: Fixtures.start, registry: senderRegistry)
    }

    /// The phases a test can stop at, in protocol order.
    enum Step: Int, CaseIterable, Comparable {
        case qrShown, scanned, helloAccepted, senderConfirmed, offerReceived, receiverConfirmed,
             acceptReceived, credentialSent, credentialReceived, importFinished, receiptReceived
        static func < (a: Step, b: Step) -> Bool { a.rawValue < b.rawValue }
    }

    /// The last step performed.
    private(set) var completed: Step = .qrShown

    /// Runs the happy path from where it stands up to and including `step`.
    func run(until step: Step, now: Date = Fixtures.start, seed: UInt64 = 11) throws {
        for current in Step.allCases where current > completed && current <= step {
            try perform(current, now: now, seed: seed)
            completed = current
        }
    }

    private func perform(_ step: Step, now: Date, seed: UInt64) throws {
        switch step {
        case .qrShown: break
        case .scanned:
            let payload = try SessionPayload(text: sender.payload.text)
            let (created, actions) = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: seed), now: now)
            receiver = created
            absorbReceiver(actions)
        case .helloAccepted: absorbSender(try sender.handle(.frameReceived(receiverFrames[0]), now: now))
        case .senderConfirmed: absorbSender(try sender.handle(.codeConfirmed, now: now))
        case .offerReceived: absorbReceiver(try receiver.handle(.frameReceived(senderFrames[0]), now: now))
        case .receiverConfirmed: absorbReceiver(try receiver.handle(.codeConfirmed, now: now))
        case .acceptReceived: absorbSender(try sender.handle(.frameReceived(receiverFrames[1]), now: now))
        case .credentialSent: absorbSender(try sender.handle(.credentialProvided(SecretBytes(utf8: Fixtures.password)), now: now))
        case .credentialReceived: absorbReceiver(try receiver.handle(.frameReceived(senderFrames[1]), now: now))
        case .importFinished: absorbReceiver(try receiver.handle(.importFinished(.imported), now: now))
        case .receiptReceived: absorbSender(try sender.handle(.frameReceived(receiverFrames[2]), now: now))
        }
    }

    /// Records what the sender asked for and returns the actions unchanged.
    @discardableResult
    func absorbSender(_ actions: [HandoffAction]) -> [HandoffAction] {
        for action in actions {
            switch action {
            case .send(let bytes): senderFrames.append(bytes)
            case .showShortCode(let code): senderCode = code
            default: break
            }
        }
        return actions
    }

    /// Records what the receiver asked for and returns the actions unchanged.
    @discardableResult
    func absorbReceiver(_ actions: [HandoffAction]) -> [HandoffAction] {
        for action in actions {
            switch action {
            case .send(let bytes): receiverFrames.append(bytes)
            case .showShortCode(let code): receiverCode = code
            case .showAccount(let account): shownAccount = account
            case .deliverAccount(let imported): delivered = imported
            default: break
            }
        }
        return actions
    }

    /// Whether every guarded buffer of both sessions reads as zeros.
    var allSecretsWiped: Bool {
        sender.guardedSecrets.allSatisfy(\.isAllZero) && (receiver?.guardedSecrets.allSatisfy(\.isAllZero) ?? true)
    }
}

extension HandoffAction {
    /// The terminal outcome, if this action is `.finished`.
    var outcome: TransferOutcome? {
        if case .finished(let outcome) = self { return outcome }
        return nil
    }

    /// The ignored error, if this action is `.ignored`.
    var ignoredError: HandoffError? {
        if case .ignored(let error) = self { return error }
        return nil
    }

    /// The frame bytes, if this action is `.send`.
    var sentFrame: [UInt8]? {
        if case .send(let bytes) = self { return bytes }
        return nil
    }

    /// A compact name for assertions on action sequences.
    var kind: String {
        switch self {
        case .send(let bytes): "send(\((try? Frame(bytes: bytes))?.type.description ?? "?"))"
        case .showShortCode: "showShortCode"
        case .showAccount: "showAccount"
        case .requestCredential: "requestCredential"
        case .deliverAccount: "deliverAccount"
        case .ignored(let error): "ignored(\(error.identifier))"
        case .finished(let outcome): "finished(\(outcome))"
        }
    }
}

/// The kinds of a list of actions.
func kinds(_ actions: [HandoffAction]) -> [String] { actions.map(\.kind) }

/// Whether every buffer reads as zeros.
func allZero(_ secrets: [SecretBytes]) -> Bool { secrets.allSatisfy { $0.isAllZero } }
