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
        case .showCode(let payload, let number): (code, codesShown, stage) = (payload, number, .showingCode)
        case .receiverJoined: stage = .typingCode
        case .offerSent(let code): stage = .waitingForAccept(code)
        case .authenticating(let purpose): stage = .authenticating(purpose)
        case .credentialSent: stage = .passwordSent
        case .anotherDeviceJoined: anotherDeviceJoined = true
        case .framesIgnored(let count, _): ignoredFrames = count
        case .finished(let outcome): stage = .finished(outcome)
        }
    }

    var isFinal: Bool { outcome != nil }
}
