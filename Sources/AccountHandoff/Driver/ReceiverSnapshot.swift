import Foundation

/// What a receiving screen shows, as one value that ``HandoffReceiverSession`` keeps current
/// from its ``ReceiverUpdate``s: a view reads ``HandoffReceiverSession/snapshot`` without
/// awaiting, and its view model holds only the person's decisions.
public struct ReceiverSnapshot<Preparation: Sendable>: Sendable {
    /// Where the transfer stands.
    public enum Stage: Sendable {
        /// Connecting to the sending device (a relay may keep this waiting).
        case connecting
        /// Connected; waiting for the sending device's part of the code.
        case connected
        /// ``ReceiverSnapshot/code`` is fixed: show it; the sending person types it.
        case showingCode
        /// The account arrived and the importer prepared it: show it (and any conflict the
        /// preparation holds); the person accepts or declines.
        case reviewing
        /// The local-authentication gate is asking the person.
        case authenticating(LocalAuthenticationPurpose)
        /// The accept left; waiting for the password.
        case waitingForPassword
        /// The password arrived; the importer stores and validates the account.
        case importing
        /// The session ended; `detail` is the importer's sentence when it has one.
        case finished(ReceiverOutcome, detail: String?)
    }

    /// Where the transfer stands.
    public private(set) var stage = Stage.connecting
    /// When the sending device stops: what a countdown shows; known once connected.
    public private(set) var expires: Date?
    /// The code to show, once fixed.
    public private(set) var code: ShortCode?
    /// The offered account, once it arrived.
    public private(set) var offered: AccountMetadata?
    /// What the sending device declared about its local-authentication gate (Spec 3.4), with the
    /// offered account: for ``GateDeclaration/skipped`` show
    /// ``GateDeclaration/sentence(shownBy:in:)`` before the person accepts. The other device's
    /// statement, not a proof.
    public private(set) var senderGate: GateDeclaration?
    /// The importer's view of the offer (for `ImportCoordinator`, a `PreparedImport` with its
    /// conflict and choices), once prepared.
    public private(set) var preparation: Preparation?
    /// How many frames were ignored so far, as last reported (1, 10, 100, ...).
    public private(set) var ignoredFrames = 0

    /// The outcome, once the session ended.
    public var outcome: ReceiverOutcome? {
        if case .finished(let outcome, _) = stage { outcome } else { nil }
    }

    /// A session that has shown nothing yet.
    public init() {}
}

extension ReceiverSnapshot: UpdateFold {
    mutating func apply(_ update: ReceiverUpdate<Preparation>) {
        switch update {
        case .connected(let expiry): (expires, stage) = (expiry, .connected)
        case .codeReady(let shown): (code, stage) = (shown, .showingCode)
        case .accountOffered(let account, let prepared, let gate):
            (offered, preparation, senderGate, stage) = (account, prepared, gate, .reviewing)
        case .authenticating(let purpose): stage = .authenticating(purpose)
        case .accepted: stage = .waitingForPassword
        case .importing: stage = .importing
        case .framesIgnored(let count, _): ignoredFrames = count
        case .finished(let outcome, let detail): stage = .finished(outcome, detail: detail)
        }
    }

    var isFinal: Bool { outcome != nil }
}
