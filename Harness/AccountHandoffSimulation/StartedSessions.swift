import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// The standard scenario's sender just after its start and its honest receiver just after the
/// scan, made once per process. Fuzz inputs, worlds and victim harnesses of that scenario begin
/// from copies (the package's `copyAwaitingHello` and `copyAwaitingReveal` hooks: the same
/// state, new guarded buffers) instead of drawing and deriving the same keys for every input.
///
/// Test support only.
final class StartedSessions: @unchecked Sendable {
    // Safety of @unchecked Sendable: the sessions here never handle an event; they are only
    // read (copied), which takes each secret's own lock.
    /// The started sender.
    let sender: HandoffSender
    /// The receiver that scanned `sender.payload`, which is also what the QR text decodes to
    /// (checked here), so it serves worlds (which scan the text) and victim harnesses alike.
    let receiver: HandoffReceiver
    /// The hello the receiver sent.
    let hello: [UInt8]
    /// The sender's QR text.
    let qrText: String
    /// The password the QR text was checked against (with the sender's key material) when these
    /// sessions were made: every copy has the same text and key bytes, so the check holds for
    /// every world of a scenario with this password.
    let passwordCheckedInQRText: String

    /// The sessions of ``Scenario/standard``, or `nil` if its start fails (callers then start
    /// for real and report the failure).
    static let standard: StartedSessions? = try? StartedSessions(.standard)

    /// The started sessions for `scenario`, if they are the standard ones.
    static func of(_ scenario: Scenario) -> StartedSessions? {
        scenario.startsLike(.standard) ? standard : nil
    }

    private init(_ scenario: Scenario) throws {
        sender = try HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous,
                                         random: InsecureDeterministicRandom(seed: scenario.senderSeed), now: scenario.start)
        qrText = sender.payload.text
        guard try ScannedQR.payload(of: qrText) == sender.payload else {
            throw InvariantViolation("the standard QR text does not decode to the sender's payload")
        }
        let scanned = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: scenario.receiverSeed),
                                               now: scenario.start)
        guard scanned.step.actions.count == 1, case .send(let hello)? = scanned.step.actions.first else {
            throw InvariantViolation("a scan of the standard QR did not send exactly its hello")
        }
        (receiver, self.hello) = (scanned.receiver, hello)
        passwordCheckedInQRText = scenario.password
        let leaks = LeakScanner(password: scenario.password)
        leaks.learn(sender.keptSecrets)
        try leaks.check(text: qrText, "QR text")
    }
}

extension Scenario {
    /// Whether `self` and `other` start the same sessions: the same account, rendezvous, start
    /// time and sender and receiver seeds (the password and the attacker's seed come later).
    func startsLike(_ other: Scenario) -> Bool {
        if isStandardValue && other.isStandardValue { return true }
        return senderSeed == other.senderSeed && receiverSeed == other.receiverSeed && start == other.start
            && rendezvous == other.rendezvous && account == other.account
    }
}
