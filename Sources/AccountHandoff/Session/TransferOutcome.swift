/// Which side took an action.
public enum Party: String, Hashable, Sendable {
    /// This device.
    case local
    /// The other device, through an authenticated message.
    case peer
}

/// What the receiver reports after handing the account to its app.
public enum ReceiptStatus: UInt8, Hashable, Sendable, CaseIterable {
    /// Stored and validated against the mail server.
    case imported = 1
    /// Stored, but validation against the mail server failed; the app discarded it.
    case validationFailed = 2
    /// The receiving person or app declined to import (for example, to avoid replacing an account).
    case declined = 3
}

/// How a session ended. Exactly one outcome per session.
public enum TransferOutcome: Hashable, Sendable {
    /// The receiver answered with a receipt.
    case completed(ReceiptStatus)
    /// A person cancelled.
    case cancelled(by: Party)
    /// A person rejected the short code or the import.
    case rejected(by: Party)
    /// A second device completed key confirmation for the same transfer; warn the user.
    case contested
    /// The expiry passed before the session finished.
    case expired
    /// Transport loss or another terminal failure.
    case failed(HandoffError)
}
