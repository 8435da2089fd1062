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
    /// Typed way (Spec 6.1): the transport has a connection that reached this device by
    /// `route` and waits for its `pakeInit`. The session answers
    /// ``SenderAction/startTypedRun(_:pakeInit:)`` for that connection, or throws
    /// ``HandoffError/typedRunsBusy`` (8 runs pending: let the connection wait and ask again
    /// when one ends) or ``HandoffError/invalidEvent(_:in:)`` (the typed way is closed: close
    /// the connection).
    case typedRunRequested(TypedRoute)
    /// Typed way: the connection of this run closed. Its scalar is wiped; no guess is counted
    /// (the peer learned nothing without sending a `pakeReply`). A no-op for an unknown run.
    case typedRunEnded(TypedRunID)
    /// Typed way: the local network's name of the current nameplate is taken (another device
    /// advertises it). The session draws a new code (no guess counted) and answers
    /// ``SenderAction/typedCodeReplaced(_:)``; the 9th time in a row it withdraws the typed way.
    case typedNameTaken

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
    /// Both people confirmed. Tell the person what `receiverGate` declares (Spec 3.6: for
    /// ``GateDeclaration/skipped``, that the receiving device did not ask its person to prove
    /// who they are, ``GateDeclaration/sentence(shownBy:in:)``), re-authenticate the user
    /// locally now, then feed ``SenderEvent/credentialProvided(_:)`` with the password.
    ///
    /// - Warning: `receiverGate` is the receiving device's own statement: a malicious device
    ///   can declare ``GateDeclaration/asks`` and ask nobody (Spec 8.7).
    case requestCredential(receiverGate: GateDeclaration)
    /// A second device proved it saw the QR after the credential had already left: warn the
    /// person that the QR was seen by another device. The session goes on.
    case anotherDeviceJoined
    /// Typed way: send `pakeInit` on the connection that asked for a run
    /// (``SenderEvent/typedRunRequested(_:)``), and keep `run` with that connection.
    case startTypedRun(TypedRunID, pakeInit: [UInt8])
    /// Typed way: a device tried a code that does not match; the code shown is retired (it no
    /// longer works) and `newCode` is shown instead. Tell the person (Spec 6.1); the session goes
    /// on. `wrongGuesses` counts the wrong codes so far (1 or 2).
    case typedCodeRetired(newCode: TypedCode, wrongGuesses: Int)
    /// Typed way: the code's name was taken on the local network; show `newCode` instead.
    case typedCodeReplaced(TypedCode)
    /// Typed way: no code can be typed any more for this transfer (unadvertise, close every
    /// typed connection). Tell the person why unless the QR way paired.
    case typedWayWithdrawn(TypedWayWithdrawal)
    /// Typed way: the run `run` paired; its connection is now the session's peer, where every
    /// following ``send(_:)`` goes. Every other connection is closed; the QR is withdrawn.
    case pairedByTypedCode(TypedRunID)
    /// A frame was dropped without changing anything (malformed, unauthenticated, replayed...).
    case ignored(HandoffError)
    /// The session ended; every secret it held is already wiped.
    case finished(SenderOutcome)
}
