/// Inputs to a sender session (Spec 6.1).
public enum SenderEvent: Sendable {
    /// Bytes of one frame arrived from the transport.
    case frameReceived([UInt8])
    /// The sending person typed the code that the receiving device shows (Spec 4.4). The
    /// sender never shows its own code, so a careless "yes" cannot confirm a device that
    /// shows none: only the six digits on the receiving screen do.
    case codeEntered(String)
    /// The sending person declined (or the receiving screen shows no code).
    case reject
    /// The sending person cancelled. After the credential left this only ends the wait.
    case cancel
    /// The app re-authenticated the user and hands over the password. The session wipes the
    /// buffer in every case: once it is encrypted, refused, or the session has ended. Copy the
    /// password with ``HandoffSender/credential(copying:)``, so that its buffer comes from the
    /// guarded memory the session reserved at its start (Spec 8.5).
    case credentialProvided(SecretBytes)
    /// Local authentication failed right before the password would have been read (Spec 8.7);
    /// the receiving device is told. (A cancelled authentication is ``cancel``.)
    case notAuthenticated
    /// The password could not be read from this device's keychain; the receiving device is
    /// told that this device's store failed.
    case storeUnavailable
    /// Time passed; only checks the expiry. Feed it at the step's ``SessionStep/nextDeadline``.
    case tick
    /// The transport closed or timed out.
    case transportLost

    /// Wipes a password handed in with the event, if any.
    func wipeCredential() {
        if case .credentialProvided(let credential) = self { credential.wipe() }
    }
}

/// What a sender session asks its app to do (Spec 6). Perform them in order.
public enum SenderAction: Sendable {
    /// Send these frame bytes to the session's peer.
    case send([UInt8])
    /// Send these frame bytes back to whoever sent the frame being processed: a second device
    /// that proved it saw the QR, told that the transfer is contested. Its connection is not
    /// the session's.
    case reply([UInt8])
    /// A receiving device proved it saw the QR: ask the person to type the code that the
    /// receiving device shows (this device never shows its own), then feed
    /// ``SenderEvent/codeEntered(_:)``.
    case askForCode
    /// The typed code did not match; `remainingEntries` more may be typed before the
    /// session ends as rejected (Spec 4.4).
    case codeMismatch(remainingEntries: Int)
    /// Both people confirmed. Re-authenticate the user locally now, then feed
    /// ``SenderEvent/credentialProvided(_:)`` with the password.
    case requestCredential
    /// A second device proved it saw the QR after the credential had already left: warn the
    /// person that the QR was seen by another device. The session goes on.
    case anotherDeviceJoined
    /// A frame was dropped without changing anything (malformed, unauthenticated, replayed...).
    case ignored(HandoffError)
    /// The session ended; every secret it held is already wiped.
    case finished(SenderOutcome)
}
