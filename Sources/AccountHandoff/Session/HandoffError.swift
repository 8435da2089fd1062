/// Every failure AccountHandoff reports. Cases are specific, carry no secret bytes, and each
/// has a stable ``identifier`` that `Spec/` and `Vectors/` use.
public enum HandoffError: Error, Hashable, Sendable {
    /// A named field of a payload, frame or message, used by ``malformed(_:)``.
    public enum Field: String, Hashable, Sendable, CaseIterable {
        case length, digits, version, intent, transferID, expiry, challenge, publicKey
        case rendezvous, frameHeader, frameLength, body, sequence
        case accountLinkID, displayName, emailAddress, username, imapHost, imapPort, imapSecurity
        case padding, credential, receiptStatus, abortReason, trailingBytes
    }

    /// The QR text does not start with the `AH:` prefix.
    case badMagic
    /// The payload or frame names a protocol version this library does not speak.
    case unsupportedVersion(UInt8)
    /// The QR intent is not the one the scanning person asked for.
    case wrongIntent(UInt8)
    /// A decimal chunk of the QR text encodes a value too large for its byte count.
    case nonCanonicalEncoding
    /// The rendezvous token is longer than ``RendezvousToken/maximumByteCount``.
    case rendezvousTooLong(Int)
    /// A field is missing, truncated, out of range or followed by stray bytes.
    case malformed(Field)
    /// The session's expiry has passed (for the receiver: past the skew tolerance).
    case expired
    /// The QR's expiry lies further ahead than any honest sender would set it.
    case expiryTooFar
    /// A frame is larger than ``Frame/maximumByteCount``; the size is reported.
    case oversizedFrame(Int)
    /// A frame carries a message type this version does not define.
    case unknownMessageType(UInt8)
    /// A frame names a transfer ID that is not this session's.
    case unknownTransfer
    /// A frame repeats a sequence number that was already accepted.
    case replayed
    /// A frame skips ahead of the next expected sequence number.
    case outOfOrder
    /// A well-formed frame arrived in a state that does not accept its type.
    case unexpectedMessage(MessageType, in: SessionState)
    /// Key confirmation or AEAD verification failed: wrong key, transcript, nonce or data.
    case authenticationFailed
    /// The peer's public key produced an all-zero X25519 shared secret.
    case lowOrderPublicKey
    /// A key derivation could not produce its output (HKDF length or short-code exhaustion).
    case keyDerivationFailed
    /// The local app sent an event the current state does not accept.
    case invalidEvent(SessionEvent, in: SessionState)
    /// The session already ended; nothing more can happen in it.
    case sessionFinished
    /// The peer cancelled the transfer with an authenticated message (``TransferOutcome/error``).
    case cancelledByPeer
    /// The peer rejected the transfer (codes differ or the person declined).
    case rejectedByPeer
    /// A second device completed key confirmation for the same transfer.
    case anotherDeviceJoined
    /// The transport closed or timed out before the session ended.
    case transportLost
    /// The transfer ID was already issued or is no longer usable on this device.
    case transferIDInUse
    /// This QR was already scanned on this device; a QR works once.
    case alreadyScanned
    /// The transfer ended (done, cancelled, expired) and its ID is consumed.
    case transferConsumed
    /// A configuration value is outside its allowed range.
    case invalidConfiguration
}

extension HandoffError {
    /// A stable, secret-free identifier such as `malformed.transferID`, used by Spec and vectors.
    public var identifier: String {
        switch self {
        case .badMagic: "badMagic"
        case .unsupportedVersion: "unsupportedVersion"
        case .wrongIntent: "wrongIntent"
        case .nonCanonicalEncoding: "nonCanonicalEncoding"
        case .rendezvousTooLong: "rendezvousTooLong"
        case .malformed(let field): "malformed.\(field.rawValue)"
        case .expired: "expired"
        case .expiryTooFar: "expiryTooFar"
        case .oversizedFrame: "oversizedFrame"
        case .unknownMessageType: "unknownMessageType"
        case .unknownTransfer: "unknownTransfer"
        case .replayed: "replayed"
        case .outOfOrder: "outOfOrder"
        case .unexpectedMessage: "unexpectedMessage"
        case .authenticationFailed: "authenticationFailed"
        case .lowOrderPublicKey: "lowOrderPublicKey"
        case .keyDerivationFailed: "keyDerivationFailed"
        case .invalidEvent: "invalidEvent"
        case .sessionFinished: "sessionFinished"
        case .cancelledByPeer: "cancelledByPeer"
        case .rejectedByPeer: "rejectedByPeer"
        case .anotherDeviceJoined: "anotherDeviceJoined"
        case .transportLost: "transportLost"
        case .transferIDInUse: "transferIDInUse"
        case .alreadyScanned: "alreadyScanned"
        case .transferConsumed: "transferConsumed"
        case .invalidConfiguration: "invalidConfiguration"
        }
    }
}

extension HandoffError: CustomStringConvertible {
    /// A whole sentence for people; it never contains key material or account data.
    public var description: String {
        switch self {
        case .badMagic: "This is not an AccountHandoff code; scan the code shown by the sending device."
        case .unsupportedVersion(let version): "This code uses protocol version \(version), which this app does not support; update both apps."
        case .wrongIntent(let intent): "This code asks for transfer intent \(intent), not the one you chose; check which device is sending."
        case .nonCanonicalEncoding: "This code is not in canonical form; scan the code shown by the sending device again."
        case .rendezvousTooLong(let count): "The rendezvous token has \(count) bytes, more than the \(RendezvousToken.maximumByteCount) allowed."
        case .malformed(let field): "The \(field.rawValue) field is malformed."
        case .expired: "The transfer has expired; start a new transfer on the sending device."
        case .expiryTooFar: "The code claims an expiry too far in the future; check both devices' clocks and start again."
        case .oversizedFrame(let count): "A message of \(count) bytes exceeds the \(Frame.maximumByteCount)-byte limit."
        case .unknownMessageType(let type): "Message type \(type) is unknown."
        case .unknownTransfer: "The message belongs to another transfer."
        case .replayed: "The message repeats one already received."
        case .outOfOrder: "The message arrived out of order."
        case .unexpectedMessage(let type, let state): "A \(type) message is not expected while \(state)."
        case .authenticationFailed: "Authentication failed."
        case .lowOrderPublicKey: "The peer's public key is invalid."
        case .keyDerivationFailed: "Key derivation failed; start a new transfer."
        case .invalidEvent(let event, let state): "The \(event) action is not possible while \(state)."
        case .sessionFinished: "The transfer has already ended; start a new one to try again."
        case .cancelledByPeer: "The other device cancelled the transfer."
        case .rejectedByPeer: "The other device rejected the transfer."
        case .anotherDeviceJoined: "Another device tried to join this transfer; start a new transfer and keep the code private."
        case .transportLost: "The connection to the other device was lost; start a new transfer."
        case .transferIDInUse: "This transfer ID is already in use; start a new transfer."
        case .alreadyScanned: "This code was already used on this device; ask for a new code."
        case .transferConsumed: "This transfer has ended and cannot be used again."
        case .invalidConfiguration: "A configuration value is out of range."
        }
    }
}
