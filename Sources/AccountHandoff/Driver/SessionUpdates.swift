import Foundation

/// What a ``HandoffSenderSession`` tells its app to show, in order.
public enum SenderUpdate: Sendable {
    /// The QR is ready; waiting for a receiving device until `expires`.
    case waitingForReceiver(expires: Date)
    /// A receiving device proved it saw the QR. Show the code next to the account and ask the
    /// person whether the other device shows the same code: ``HandoffSenderSession/confirmCode()``,
    /// ``HandoffSenderSession/confirmCode(typed:)`` or ``HandoffSenderSession/rejectCode()``.
    case codeReady(ShortCode)
    /// The account details left (encrypted); waiting for the receiving person to accept.
    case offerSent
    /// Both people confirmed. Authenticate the user locally, then call
    /// ``HandoffSenderSession/provideCredential(_:)``.
    case credentialRequested
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

/// What a ``HandoffReceiverSession`` tells its app to show, in order.
public enum ReceiverUpdate: Sendable {
    /// Connected to the sending device; the hello is on its way. Waiting for the sender to
    /// reveal its part of the code. The sender stops at `expires`.
    case connected(expires: Date)
    /// Both contributions to the code are fixed: show it for comparison.
    case codeReady(ShortCode)
    /// The sending person confirmed; show the offered account next to the code and ask the
    /// person to confirm both: ``HandoffReceiverSession/accept()`` or
    /// ``HandoffReceiverSession/reject()``.
    case accountOffered(AccountMetadata)
    /// The accept left; waiting for the password.
    case accepted
    /// The password arrived; the importer is storing and validating the account.
    case importing(AccountMetadata)
    /// Frames were ignored; `count` so far, reported at 1, 10, 100, ...
    case framesIgnored(count: Int, last: HandoffError)
    /// The session ended. Nothing follows.
    case finished(ReceiverOutcome)
}

/// Stores and validates a delivered account on the receiving device and says how it went.
///
/// The account's credential belongs to the importer: wipe it when done. If the task is
/// cancelled (the person cancelled during the import), finish or roll back and report what
/// happened; the status is sent to the sender as the receipt.
public protocol AccountImporter: Sendable {
    /// Imports `account` and returns the receipt status: `.imported` only once the account is
    /// stored and validated, `.validationFailed` when the mail server refused it (the old
    /// account is kept), `.declined` when it was not imported for another reason.
    func importAccount(_ account: ImportedAccount) async -> ReceiptStatus
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
