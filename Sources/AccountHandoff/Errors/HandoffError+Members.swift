// The errors apps create and compare, grouped by layer. Each is a static member, so a new
// error is a new member and no app's `switch` breaks.

// MARK: Parsing: the QR text, a frame or a message cannot be read

extension HandoffError {
    /// The QR text does not start with the `AH:` prefix.
    public static let badMagic = HandoffError(.badMagic)

    /// The payload or frame names a protocol version this library does not speak.
    /// - Parameter version: The version byte that was read.
    public static func unsupportedVersion(_ version: UInt8) -> HandoffError {
        HandoffError(.unsupportedVersion(version))
    }

    /// The QR intent is not defined, or not the one the scanning person asked for.
    /// - Parameter intent: The intent byte that was read.
    public static func wrongIntent(_ intent: UInt8) -> HandoffError { HandoffError(.wrongIntent(intent)) }

    /// A decimal group of the QR text encodes a value too large for its byte count.
    public static let nonCanonicalEncoding = HandoffError(.nonCanonicalEncoding)

    /// The rendezvous token is longer than ``RendezvousToken/maximumByteCount``.
    /// - Parameter byteCount: The token's length in bytes.
    public static func rendezvousTooLong(_ byteCount: Int) -> HandoffError {
        HandoffError(.rendezvousTooLong(byteCount))
    }

    /// A field is missing, truncated, out of range, breaks the text rules or is followed by stray bytes.
    /// - Parameter field: The field that is wrong.
    public static func malformed(_ field: Field) -> HandoffError { HandoffError(.malformed(field)) }

    /// The QR's expiry lies further ahead than any honest sender would set it.
    public static let expiryTooFar = HandoffError(.expiryTooFar)

    /// A typed code's 11 digits fail their check digit: a typo, caught before anything was sent.
    public static let typedCodeCheckFailed = HandoffError(.typedCodeCheckFailed)

    /// This device already ran this typed code; a code works once per device (Spec 6.3).
    public static let typedCodeAlreadyUsed = HandoffError(.typedCodeAlreadyUsed)

    /// The device reached did not confirm the typed code: the code did not match it (Spec 6.2).
    public static let typedCodeMismatch = HandoffError(.typedCodeMismatch)

    /// The connection closed before the sending device confirmed the typed code (Spec 6.2).
    public static let typedCodeUnconfirmed = HandoffError(.typedCodeUnconfirmed)

    /// The sending device has 8 typed runs pending; the connection waits for one to end (Spec 6.1).
    public static let typedRunsBusy = HandoffError(.typedRunsBusy)

    /// Six digits were typed where the 11-digit typed code belongs: the short code the sending
    /// device asks for in the QR mode, typed at the wrong device.
    public static let typedCodeIsShortCode = HandoffError(.typedCodeIsShortCode)

    /// A frame is larger than ``Frame/maximumByteCount``; the size is reported.
    /// - Parameter byteCount: The frame's size in bytes.
    public static func oversizedFrame(_ byteCount: Int) -> HandoffError { HandoffError(.oversizedFrame(byteCount)) }

    /// A frame carries a message type this version does not define.
    /// - Parameter type: The message type byte that was read.
    public static func unknownMessageType(_ type: UInt8) -> HandoffError { HandoffError(.unknownMessageType(type)) }
}

// MARK: Peer: the other device, the protocol or the session's time

extension HandoffError {
    /// The session's expiry has passed (for the receiver: past the skew tolerance).
    public static let expired = HandoffError(.expired)

    /// A frame names a transfer ID that is not this session's.
    public static let unknownTransfer = HandoffError(.unknownTransfer)

    /// A frame repeats one that was already accepted.
    public static let replayed = HandoffError(.replayed)

    /// A frame skips ahead of the next expected sequence number.
    public static let outOfOrder = HandoffError(.outOfOrder)

    /// A well-formed frame arrived in a phase that does not accept its type.
    /// - Parameters:
    ///   - type: The frame's message type.
    ///   - phase: The phase the session was in.
    public static func unexpectedMessage(_ type: MessageType, in phase: SessionPhase) -> HandoffError {
        HandoffError(.unexpectedMessage(type, in: phase))
    }

    /// Key confirmation or AEAD verification failed: wrong key, transcript, nonce or data.
    public static let authenticationFailed = HandoffError(.authenticationFailed)

    /// The peer's public key produced an all-zero X25519 shared secret.
    public static let lowOrderPublicKey = HandoffError(.lowOrderPublicKey)

    /// The peer's CPace share is not a ristretto255 element, or gives the identity as shared point.
    public static let invalidPakeShare = HandoffError(.invalidPakeShare)

    /// The sender revealed a nonce that does not match the commitment in its QR.
    public static let commitmentMismatch = HandoffError(.commitmentMismatch)

    /// A key derivation could not produce its output (HKDF length or short-code exhaustion).
    public static let keyDerivationFailed = HandoffError(.keyDerivationFailed)

    /// The peer cancelled the transfer with an authenticated message (``ReceiverOutcome/error``, ``SenderOutcome/error``).
    public static let cancelledByPeer = HandoffError(.cancelledByPeer)

    /// The peer rejected the transfer (codes differ or the person declined).
    public static let rejectedByPeer = HandoffError(.rejectedByPeer)

    /// A second device completed key confirmation for the same transfer.
    public static let anotherDeviceJoined = HandoffError(.anotherDeviceJoined)

    /// The other device's account store or keychain cannot do what the transfer needs.
    public static let peerStoreUnavailable = HandoffError(.peerStoreUnavailable)

    /// Local authentication failed on the other device (Spec 8.7).
    public static let peerNotAuthenticated = HandoffError(.peerNotAuthenticated)
}

// MARK: Misuse: the app asked for something the session or its settings do not allow

extension HandoffError {
    /// The app fed a local event that the session's current phase does not accept.
    /// - Parameters:
    ///   - event: The event the app fed.
    ///   - phase: The phase the session was in.
    public static func invalidEvent(_ event: LocalEvent, in phase: SessionPhase) -> HandoffError {
        HandoffError(.invalidEvent(event, in: phase))
    }

    /// The time handed to a session is not a finite number, or outside the protocol's range.
    public static let invalidClock = HandoffError(.invalidClock)

    /// The session already ended; nothing more can happen in it.
    public static let sessionFinished = HandoffError(.sessionFinished)

    /// The person accepted an offered account that conflicts with a stored one before
    /// choosing what to do with it; nothing was sent.
    public static let importChoiceRequired = HandoffError(.importChoiceRequired)

    /// A configuration value is outside its allowed range.
    public static let invalidConfiguration = HandoffError(.invalidConfiguration)

    /// The transfer ID is already registered on this device.
    public static let transferIDInUse = HandoffError(.transferIDInUse)

    /// This QR was already used on this device; a QR works once.
    public static let alreadyScanned = HandoffError(.alreadyScanned)

    /// The transfer ended (done, cancelled, expired) and its ID is consumed.
    public static let transferConsumed = HandoffError(.transferConsumed)
}

// MARK: Environment: this device's stores, memory, authentication or network

extension HandoffError {
    /// This device's account store or keychain cannot do what the transfer needs (the
    /// receiver cannot store the account; the sender cannot read the password), so the
    /// password was not sent.
    public static let storeUnavailable = HandoffError(.storeUnavailable)

    /// Local authentication failed on this device (Spec 8.7).
    public static let notAuthenticated = HandoffError(.notAuthenticated)

    /// The transport closed or timed out before the session ended.
    public static let transportLost = HandoffError(.transportLost)

    /// A driver could not open the channel to the sending device (nothing listens at the
    /// QR's rendezvous, or the connection was refused); nothing was sent.
    public static let senderUnreachable = HandoffError(.senderUnreachable)

    /// Guarded, locked memory for a secret could not be obtained; nothing secret was placed
    /// in unguarded memory.
    /// - Parameter failure: What the operating system refused.
    public static func secureMemoryUnavailable(_ failure: SecureMemoryFailure) -> HandoffError {
        HandoffError(.secureMemoryUnavailable(failure))
    }

    /// A durable registry could not record a claim or registration (Spec 6.3).
    /// - Parameter failure: What went wrong with the registry's storage.
    public static func registryUnavailable(_ failure: RegistryStorageFailure) -> HandoffError {
        HandoffError(.registryUnavailable(failure))
    }
}
