import Foundation

/// What a sending screen shows, as one value that ``HandoffSenderSession`` keeps current from
/// its ``SenderUpdate``s: a view reads ``HandoffSenderSession/snapshot`` without awaiting, and
/// its view model holds only the person's decisions.
public struct SenderSnapshot: Sendable, Hashable {
    /// Where the transfer stands.
    public enum Stage: Sendable, Hashable {
        /// Before the first QR (the optional gate before it may be asking).
        case starting
        /// ``SenderSnapshot/code`` is on screen; no receiving device joined yet.
        case showingCode
        /// A receiving device joined: ask the person to type the code it shows
        /// (``HandoffSenderSession/enterCode(_:)``).
        case typingCode
        /// The typed code matched (`code` is safe to show now); waiting for the receiving
        /// person to accept.
        case waitingForAccept(ShortCode)
        /// The typed way paired: the receiving person typed ``SenderSnapshot/typedCode``
        /// (Spec 6.8), so there is nothing to type here; waiting for the receiving person to
        /// accept.
        case typedCodeMatched
        /// The receiving person accepted; this device's gate is about to ask and the password
        /// to be read (``SenderSnapshot/receiverGate`` says what the receiving device declared).
        case receiverAccepted
        /// The local-authentication gate is asking the person.
        case authenticating(LocalAuthenticationPurpose)
        /// The password left, encrypted; waiting for the receipt.
        case passwordSent
        /// The session ended.
        case finished(SenderOutcome)
    }

    /// Where the transfer stands.
    public private(set) var stage = Stage.starting
    /// The QR on screen (the latest one: an expired, unscanned code is replaced), once shown.
    public private(set) var code: SessionPayload?
    /// How many codes were shown so far.
    public private(set) var codesShown = 0
    /// A second device proved it saw the QR after the password had left (it received
    /// nothing): tell the person that the QR was seen by another device.
    public private(set) var anotherDeviceJoined = false
    /// How many frames were ignored so far, as last reported (1, 10, 100, ...).
    public private(set) var ignoredFrames = 0
    /// The typed code to show beside the QR (Spec 12.1) while the receiving person may type it:
    /// only when the app asked for typed routes (``SenderSessionOptions/typedRoutes``), a new
    /// one after each wrong guess, `nil` once the typed way is withdrawn, a device paired, or
    /// the session ended.
    public private(set) var typedCode: ShownTypedCode?
    /// How many devices tried a code that did not match (each retired the code shown then):
    /// tell the person ("A device tried a code that does not match; this code no longer
    /// works").
    public private(set) var typedWrongGuesses = 0
    /// Why no code can be typed any more for this transfer, once the typed way is withdrawn
    /// (for ``TypedWayWithdrawal/wrongGuesses``, tell the person; the QR stays).
    public private(set) var typedWayWithdrawn: TypedWayWithdrawal?
    /// What the receiving device declared about its local-authentication gate (Spec 3.6), once
    /// its person accepted, before the password is read: for ``GateDeclaration/skipped`` show
    /// ``GateDeclaration/sentence(shownBy:in:)``. The other device's statement, not a proof.
    public private(set) var receiverGate: GateDeclaration?

    /// The outcome, once the session ended.
    public var outcome: SenderOutcome? {
        if case .finished(let outcome) = stage { outcome } else { nil }
    }

    /// A session that has shown nothing yet.
    public init() {}
}

extension SenderSnapshot: UpdateFold {
    mutating func apply(_ update: SenderUpdate) {
        switch update {
        case .showCode(let payload, let typed, let number):
            (code, codesShown, stage) = (payload, number, .showingCode)
            typedCode = typedWayWithdrawn == nil ? typed.map(ShownTypedCode.init) : nil
        case .typedCodeRetired(let newCode, let wrongGuesses): (typedCode, typedWrongGuesses) = (ShownTypedCode(newCode), wrongGuesses)
        case .typedCodeReplaced(let newCode): typedCode = ShownTypedCode(newCode)
        case .typedWayWithdrawn(let reason): (typedCode, typedWayWithdrawn) = (nil, reason)
        case .pairedByTypedCode: (typedCode, stage) = (nil, .typedCodeMatched)
        case .receiverJoined: (typedCode, stage) = (nil, .typingCode)
        case .offerSent(let code): stage = .waitingForAccept(code)
        case .receiverAccepted(let gate): (receiverGate, stage) = (gate, .receiverAccepted)
        case .authenticating(let purpose): stage = .authenticating(purpose)
        case .credentialSent: stage = .passwordSent
        case .anotherDeviceJoined: anotherDeviceJoined = true
        case .framesIgnored(let count, _): ignoredFrames = count
        case .finished(let outcome): (typedCode, stage) = (nil, .finished(outcome))
        }
    }

    var isFinal: Bool { outcome != nil }
}

/// The typed code on a sending screen (Spec 12.1), as ``SenderSnapshot/typedCode`` holds it
/// for a view to draw.
///
/// - Warning: ``grouped`` and ``spoken`` are ordinary strings that hold the code's secret so
///   that a screen can show it; show them, never log or store them. ``description`` and the
///   reflection show the nameplate only.
public struct ShownTypedCode: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The public part that finds the sending device.
    public let nameplate: TypedCode.Nameplate
    /// The shown form, groups of 3, 4 and 4 digits: `"427 8150 9366"`.
    public let grouped: String
    /// For screen readers and reading aloud, in English: `"four two seven, eight one five zero, nine three six six"`.
    public let spoken: String

    /// What a screen shows of `code`.
    ///
    /// - Precondition: `code` has not been wiped.
    public init(_ code: TypedCode) {
        (nameplate, grouped, spoken) = (code.nameplate, code.grouped, code.spoken)
    }

    /// The nameplate only, e.g. `"ShownTypedCode(427, secret redacted)"`.
    public var description: String { "ShownTypedCode(\(nameplate), secret redacted)" }
    /// As ``description``.
    public var debugDescription: String { description }
    /// The nameplate only.
    public var customMirror: Mirror { Mirror(self, children: ["nameplate": nameplate], displayStyle: .struct) }
}
