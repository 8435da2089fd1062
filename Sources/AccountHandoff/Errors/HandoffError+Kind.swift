extension HandoffError {
    /// Every failure, exhaustively: the package's own code and tests switch over it with no
    /// `default` (the sentences, ``HandoffError/code`` and so ``HandoffError/identifier``),
    /// so a new case cannot miss its sentence or its identifier. Each case has a static member
    /// of the same name on ``HandoffError`` (HandoffError+Members.swift), which is what apps
    /// see; those members can grow without breaking them.
    package enum Kind: Hashable, Sendable {
        /// The QR text does not start with the `AH:` prefix.
        case badMagic
        /// The payload or frame names a protocol version this library does not speak.
        case unsupportedVersion(UInt8)
        /// The QR intent is not defined, or not the one the scanning person asked for.
        case wrongIntent(UInt8)
        /// A decimal group of the QR text encodes a value too large for its byte count.
        case nonCanonicalEncoding
        /// The rendezvous token is longer than ``RendezvousToken/maximumByteCount``.
        case rendezvousTooLong(Int)
        /// A field is missing, truncated, out of range, breaks the text rules or is followed by stray bytes.
        case malformed(Field)
        /// The session's expiry has passed (for the receiver: past the skew tolerance).
        case expired
        /// The QR's expiry lies further ahead than any honest sender would set it.
        case expiryTooFar
        /// A typed code's 11 digits fail their check digit (Spec 12.5): a typo; nothing was sent.
        case typedCodeCheckFailed
        /// Six digits were typed where the typed code belongs: the short code that the sending
        /// device asks for in the QR mode (Spec 12.5); nothing was sent.
        case typedCodeIsShortCode
        /// This device already ran this typed code (Spec 6.3): a code works once per device.
        case typedCodeAlreadyUsed
        /// The device reached did not confirm the typed code (Spec 6.2): a wrong tag or
        /// `pakeRefused` after this device's `pakeReply`; the code is used up.
        case typedCodeMismatch
        /// The connection closed after this device's `pakeReply` and before the sending device
        /// confirmed the code (Spec 6.2); the code is used up.
        case typedCodeUnconfirmed
        /// A sending device has 8 typed runs pending (Spec 6.1); the connection waits.
        case typedRunsBusy
        /// A frame is larger than ``Frame/maximumByteCount``; the size is reported.
        case oversizedFrame(Int)
        /// A frame carries a message type this version does not define.
        case unknownMessageType(UInt8)
        /// A frame names a transfer ID that is not this session's.
        case unknownTransfer
        /// A frame repeats one that was already accepted.
        case replayed
        /// A frame skips ahead of the next expected sequence number.
        case outOfOrder
        /// A well-formed frame arrived in a phase that does not accept its type.
        case unexpectedMessage(MessageType, in: SessionPhase)
        /// Key confirmation or AEAD verification failed: wrong key, transcript, nonce or data.
        case authenticationFailed
        /// The peer's public key produced an all-zero X25519 shared secret.
        case lowOrderPublicKey
        /// The peer's CPace share is not the encoding of a ristretto255 element, or the shared
        /// point it gives is the identity (Spec 12.6).
        case invalidPakeShare
        /// The sender revealed a nonce that does not match the commitment in its QR.
        case commitmentMismatch
        /// A key derivation could not produce its output (HKDF length or short-code exhaustion).
        case keyDerivationFailed
        /// The app fed a local event that the session's current phase does not accept.
        case invalidEvent(LocalEvent, in: SessionPhase)
        /// The time handed to a session is not a finite number, or outside the protocol's range.
        case invalidClock
        /// The session already ended; nothing more can happen in it.
        case sessionFinished
        /// The peer cancelled the transfer with an authenticated message (``ReceiverOutcome/error``, ``SenderOutcome/error``).
        case cancelledByPeer
        /// The peer rejected the transfer (codes differ or the person declined).
        case rejectedByPeer
        /// A second device completed key confirmation for the same transfer.
        case anotherDeviceJoined
        /// This device's account store or keychain cannot do what the transfer needs (the
        /// receiver cannot store the account; the sender cannot read the password), so the
        /// password was not sent.
        case storeUnavailable
        /// The other device's account store or keychain cannot do what the transfer needs.
        case peerStoreUnavailable
        /// Local authentication failed on this device (Spec 8.7).
        case notAuthenticated
        /// Local authentication failed on the other device (Spec 8.7).
        case peerNotAuthenticated
        /// The person accepted an offered account that conflicts with a stored one before
        /// choosing what to do with it; nothing was sent.
        case importChoiceRequired
        /// The transport closed or timed out before the session ended.
        case transportLost
        /// A driver could not open the channel to the sending device (nothing listens at the
        /// QR's rendezvous, or the connection was refused); nothing was sent.
        case senderUnreachable
        /// The transfer ID is already registered on this device.
        case transferIDInUse
        /// This QR was already used on this device; a QR works once.
        case alreadyScanned
        /// The transfer ended (done, cancelled, expired) and its ID is consumed.
        case transferConsumed
        /// A configuration value is outside its allowed range.
        case invalidConfiguration
        /// Guarded, locked memory for a session or a secret could not be obtained; nothing
        /// secret was placed in unguarded memory.
        case secureMemoryUnavailable(SecureMemoryFailure)
        /// A durable registry could not record a claim or registration (Spec 6.3).
        case registryUnavailable(RegistryStorageFailure)
    }
}
