import Foundation

/// What a ``HandoffSenderSession`` tells its app to show, in order.
public enum SenderUpdate: Sendable {
    /// Show this QR (`payload.text`) until `payload.expiryDate`, and beside it `typed` (its
    /// ``TypedCode/grouped`` form) when the session offers the typed way
    /// (``SenderSessionOptions/typedRoutes``). `number` counts the codes shown so far: a code
    /// that expired before any device used it is replaced by a fresh one (Spec 11.8), and the
    /// old one no longer works. `typed` is the app's copy: wipe it when the screen changes.
    case showCode(SessionPayload, typed: TypedCode?, number: Int)
    /// Typed way: a device tried a code that does not match; the code shown no longer works.
    /// Say so and show `newCode` instead ("A device tried a code that does not match; this code
    /// no longer works. The new code is ..."). `wrongGuesses` counts them (1 or 2).
    case typedCodeRetired(newCode: TypedCode, wrongGuesses: Int)
    /// Typed way: another device on this network shows the same nameplate; show `newCode`
    /// instead (nothing was guessed).
    case typedCodeReplaced(TypedCode)
    /// Typed way: no code can be typed any more for this transfer. For
    /// ``TypedWayWithdrawal/wrongGuesses`` say "Three devices tried wrong codes; typing a code
    /// is turned off for this transfer: scan the QR code, or start again"; the QR stays.
    case typedWayWithdrawn(TypedWayWithdrawal)
    /// Typed way: the receiving device typed the right code; the account details left,
    /// encrypted, with the confirmation. Waiting for the receiving person to accept.
    case pairedByTypedCode
    /// A receiving device proved it saw the QR. Ask the person to type the six digits that
    /// the receiving device shows, then call ``HandoffSenderSession/enterCode(_:)``; this
    /// device never shows its own code (Spec 4.4). If the receiving screen shows no code,
    /// the person should decline (``HandoffSenderSession/reject()``): another device joined.
    case receiverJoined
    /// The typed code matched (`code` is safe to show now); the account details left,
    /// encrypted. Waiting for the receiving person to accept.
    case offerSent(ShortCode)
    /// The receiving person accepted the account; `receiverGate` is what the receiving device
    /// declared about its local-authentication gate (Spec 3.6). Comes before this device's gate
    /// asks and before the password is read: for ``GateDeclaration/skipped`` show
    /// ``GateDeclaration/sentence(shownBy:in:)`` ("The receiving device did not ask its person
    /// to prove who they are.").
    ///
    /// - Warning: The receiving device's own statement: a malicious device can declare
    ///   ``GateDeclaration/asks`` and ask nobody (Spec 8.7).
    case receiverAccepted(receiverGate: GateDeclaration)
    /// The local-authentication gate is asking the person (Spec 8.7).
    case authenticating(LocalAuthenticationPurpose)
    /// The password left (encrypted); it cannot be taken back. Waiting for the receipt.
    case credentialSent
    /// A second device proved it saw the QR after the password had left; it received nothing.
    /// Tell the person that the QR was seen by another device.
    case anotherDeviceJoined
    /// Frames were ignored (malformed, unauthenticated, replayed...); `count` so far, reported
    /// at 1, 10, 100, ... so that a flood cannot flood the screen.
    case framesIgnored(count: Int, last: HandoffError)
    /// The session ended. Nothing follows.
    case finished(SenderOutcome)
}

/// What a ``HandoffReceiverSession`` tells its app to show, in order. `Preparation` is the
/// importer's view of the offered account (for `ImportCoordinator`: a `PreparedImport`
/// with the conflicts and choices).
public enum ReceiverUpdate<Preparation: Sendable>: Sendable {
    /// Connected to the sending device; the hello is on its way. The sender stops at
    /// `expires`. In the typed way the first one holds this device's own bound (now plus the
    /// longest lifetime), and a second one follows with the sending device's expiry once its
    /// `pakeInit` arrived (Spec 6.8).
    case connected(expires: Date)
    /// The code is fixed on this device: show it. The sending person types it on the
    /// sending device (Spec 4.4).
    case codeReady(ShortCode)
    /// The sending person typed the right code and the account arrived; the importer prepared
    /// it. Show the account (and any conflict the preparation holds, with its choices) and what
    /// `senderGate` declares (Spec 3.4: for ``GateDeclaration/skipped`` show
    /// ``GateDeclaration/sentence(shownBy:in:)``, "The sending device will not ask its person to
    /// prove who they are before the password leaves."), then call
    /// ``HandoffReceiverSession/accept()`` or ``HandoffReceiverSession/reject()``.
    ///
    /// - Warning: `senderGate` is the sending device's own statement: a malicious device can
    ///   declare ``GateDeclaration/asks`` and ask nobody (Spec 8.7).
    case accountOffered(AccountMetadata, Preparation, senderGate: GateDeclaration)
    /// The local-authentication gate is asking the person (Spec 8.7).
    case authenticating(LocalAuthenticationPurpose)
    /// The accept left; waiting for the password.
    case accepted
    /// The password arrived; the importer is storing and validating the account.
    case importing(AccountMetadata)
    /// Frames were ignored; `count` so far, reported at 1, 10, 100, ...
    case framesIgnored(count: Int, last: HandoffError)
    /// The session ended. `detail` is the importer's own sentence when it has one (what the
    /// import did, or why the store could not take the account; the library's importers say
    /// it in ``HandoffLanguage/current``); show it instead of the outcome's `message(in:)`.
    /// Nothing follows.
    case finished(ReceiverOutcome, detail: String?)
}

/// Counts ignored frames and says when to report them (at 1, 10, 100, ...).
struct IgnoredFrameCounter {
    private(set) var count = 0

    /// Counts one more; `true` when this count should be reported.
    mutating func record() -> Bool {
        count += 1
        var threshold = 1
        while threshold < count { threshold *= 10 }
        return threshold == count
    }
}
