/// Inputs to a receiver session (Spec 6.2).
public enum ReceiverEvent: Sendable {
    /// Bytes of one frame arrived from the transport.
    case frameReceived([UInt8])
    /// The receiving person accepted the offered account (its code was typed on the sending
    /// device, Spec 4.4), after the app prepared the import and authenticated the person. The
    /// accept declares the session's `localGate` (Spec 3.6).
    case accept
    /// The receiving person declined the account.
    case reject
    /// The app cannot store the offered account (its store or keychain is locked,
    /// unwritable, full or missing); the sending device is told, before the password travels.
    case storeUnavailable
    /// Local authentication failed when the person accepted (Spec 8.7).
    case notAuthenticated
    /// The receiving person cancelled (not possible while the app imports the account).
    case cancel
    /// The app finished importing (or refused) the delivered account; sends the receipt.
    case importFinished(ReceiptStatus)
    /// Time passed; only checks the expiry. Feed it at the step's ``SessionStep/nextDeadline``.
    case tick
    /// The transport closed or timed out.
    case transportLost
}

/// What a receiver session asks its app to do (Spec 6). Perform them in order.
public enum ReceiverAction: Sendable {
    /// Send these frame bytes to the sender.
    case send([UInt8])
    /// Show this short code: the sending person types it on the sending device (Spec 4.4).
    case showShortCode(ShortCode)
    /// Show the offered account next to the short code and the expiry, and what `senderGate`
    /// declares (Spec 3.4: for ``GateDeclaration/skipped``, that the sending device will not ask
    /// its person to prove who they are, ``GateDeclaration/sentence(shownBy:in:)``), then ask the
    /// person to confirm (and, when an account with the same identity exists, how to import it).
    ///
    /// - Warning: `senderGate` is the sending device's own statement: a malicious device can
    ///   declare ``GateDeclaration/asks`` and ask nobody (Spec 8.7).
    case showAccount(AccountMetadata, senderGate: GateDeclaration)
    /// Store this account and credential, validate it, then feed
    /// ``ReceiverEvent/importFinished(_:)``. The credential buffer now belongs to the app: this
    /// state machine never wipes it. The receiver session (``HandoffReceiverSession``) wipes the
    /// delivered credential as soon as the importer's `importAccount(_:)` returns; an app that
    /// drives ``HandoffReceiver`` itself wipes it when its import is done (Spec 6.5).
    case deliverAccount(ImportedAccount)
    /// A frame was dropped without changing anything (malformed, unauthenticated, replayed...).
    case ignored(HandoffError)
    /// The session ended; every secret it owned is already wiped.
    case finished(ReceiverOutcome)
}
