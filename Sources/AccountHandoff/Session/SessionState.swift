/// Where a sender or receiver session stands; named in errors and state tables.
public enum SessionState: String, Hashable, Sendable, CustomStringConvertible {
    /// Sender: QR shown, waiting for a receiver's hello.
    case awaitingHello
    /// Receiver: hello sent and code shown, waiting for the sender's account offer.
    case awaitingOffer
    /// Sender: code shown, waiting for the sending person to confirm it.
    case awaitingCodeConfirmation
    /// Receiver: account and code shown, waiting for the receiving person to accept.
    case reviewingOffer
    /// Sender: offer sent, waiting for the receiver's authenticated accept.
    case awaitingAccept
    /// Sender: both confirmed; waiting for the app to re-authenticate and hand over the credential.
    case awaitingCredential
    /// Receiver: accept sent, waiting for the encrypted credential.
    case awaitingCredentialFrame
    /// Receiver: account handed to the app, waiting for its import result.
    case awaitingImportResult
    /// Sender: credential sent, waiting for the receiver's receipt.
    case awaitingReceipt
    /// The session ended; see its ``TransferOutcome``.
    case finished

    /// The raw name, e.g. `awaitingHello`.
    public var description: String { rawValue }
}

/// The local events an app can feed into a session, named in ``HandoffError/invalidEvent(_:in:)``.
public enum SessionEvent: String, Hashable, Sendable, CustomStringConvertible {
    case codeConfirmed, codeRejected, cancel, credentialProvided, importFinished, tick, transportLost, frameReceived

    /// The raw name, e.g. `codeConfirmed`.
    public var description: String { rawValue }
}
