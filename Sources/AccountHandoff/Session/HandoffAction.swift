/// What a session asks its app to do after an event. The app performs these in order.
public enum HandoffAction: Sendable {
    /// Send these frame bytes to the peer over the transport.
    case send([UInt8])
    /// Show this short code for the person to compare with the other device.
    case showShortCode(ShortCode)
    /// Receiver: show the offered account next to the short code and the expiry, then ask
    /// the person to confirm both.
    case showAccount(AccountMetadata)
    /// Sender: both people confirmed. Re-authenticate the user locally now, then feed
    /// `.credentialProvided` with the password.
    case requestCredential
    /// Receiver: store this account and credential locally, validate it, then feed
    /// `.importFinished`. The credential buffer is wiped when the session ends.
    case deliverAccount(ImportedAccount)
    /// A frame was dropped without changing state (malformed, unauthenticated, replayed...).
    case ignored(HandoffError)
    /// The session reached its terminal state; every secret it held is already wiped.
    case finished(TransferOutcome)
}
