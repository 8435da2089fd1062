/// Where a sender session stands (Spec 6.1); named in errors and shown by apps.
public enum SenderPhase: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The QR is shown; waiting for a receiver's hello.
    case awaitingHello
    /// The reveal is sent and the code shown; waiting for the sending person to confirm it.
    case awaitingCodeConfirmation
    /// The offer is sent; waiting for the receiver's authenticated accept.
    case awaitingAccept
    /// Both people confirmed; waiting for the app to re-authenticate and hand over the credential.
    case awaitingCredential
    /// The credential is sent; waiting for the receiver's receipt.
    case awaitingReceipt
    /// The session ended; see its ``SenderOutcome``.
    case finished

    /// The raw name, e.g. `awaitingHello`.
    public var description: String { rawValue }
}

/// Where a receiver session stands (Spec 6.2); named in errors and shown by apps.
public enum ReceiverPhase: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The hello is sent; waiting for the sender's reveal before any code exists.
    case awaitingReveal
    /// The code is shown; waiting for the sender's account offer.
    case awaitingOffer
    /// The account and the code are shown; waiting for the receiving person to accept.
    case reviewingOffer
    /// The accept is sent; waiting for the encrypted credential.
    case awaitingCredentialFrame
    /// The account is handed to the app; waiting for its import result.
    case awaitingImportResult
    /// Typed way (Spec 6.2): the typed code is read; the sending device's `pakeInit` is awaited.
    case awaitingPakeInit
    /// Typed way (Spec 6.2): the `pakeReply` is sent; the sending device's `pakeConfirm` is awaited.
    case awaitingPakeConfirm
    /// The session ended; see its ``ReceiverOutcome``.
    case finished

    /// The raw name, e.g. `awaitingReveal`.
    public var description: String { rawValue }
}

/// The phase of a session of either role, as named in ``HandoffError``.
public enum SessionPhase: Hashable, Sendable, CustomStringConvertible {
    /// A sender session's phase.
    case sender(SenderPhase)
    /// A receiver session's phase.
    case receiver(ReceiverPhase)

    /// `sender.awaitingHello`, `receiver.reviewingOffer`, ...
    public var description: String {
        switch self {
        case .sender(let phase): "sender.\(phase)"
        case .receiver(let phase): "receiver.\(phase)"
        }
    }
}

/// The local events an app can feed into a session, named in ``HandoffError/invalidEvent(_:in:)``.
public enum LocalEvent: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Sender: the person typed the code the receiving device shows.
    case codeEntered
    /// Receiver: the person accepted the offered account.
    case accept
    /// The person rejected the code or the account.
    case reject
    /// Receiver: the app found that it cannot store the offered account.
    case storeUnavailable
    /// Local authentication failed.
    case notAuthenticated
    /// The person cancelled.
    case cancel
    /// Sender: the app handed over the password.
    case credentialProvided
    /// Receiver: the app reported the import result.
    case importFinished
    /// Time passed.
    case tick
    /// The transport closed.
    case transportLost
    /// Sender, typed way: a connection waits for its `pakeInit` (Spec 6.1).
    case typedRunRequested

    /// The raw name, e.g. `accept`.
    public var description: String { rawValue }
}
