/// The frame types of protocol version 4 (Spec section 3.2). Values 1...6 keep their
/// version-1 meaning; ``reveal`` was added in version 2, the typed way's four types
/// (``pakeInit`` ... ``pakeRefused``) in version 4.
public enum MessageType: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Receiver to sender: receiver public key and key confirmation tag. Not encrypted.
    case hello = 1
    /// Sender to receiver: encrypted account metadata, sent after the sending person confirmed.
    case offer = 2
    /// Receiver to sender: encrypted, empty; the receiving person confirmed code and import.
    case accept = 3
    /// Sender to receiver: encrypted, padded credential.
    case credential = 4
    /// Receiver to sender: encrypted one-byte ``ReceiptStatus``.
    case receipt = 5
    /// Either direction: encrypted one-byte abort reason (Spec 3.6).
    case abort = 6
    /// Sender to receiver: the encrypted nonce that opens the QR's commitment.
    case reveal = 7
    /// Sender to receiver, typed way: the sending session's expiry, the run's `sid` and the
    /// sender's CPace share `Ya`. Not encrypted (Spec 3.8).
    case pakeInit = 8
    /// Receiver to sender, typed way: the run's `sid`, the receiver's share `Yb` and its
    /// confirmation tag. Not encrypted (Spec 3.8).
    case pakeReply = 9
    /// Sender to receiver, typed way: the sender's confirmation tag (Spec 3.8).
    case pakeConfirm = 10
    /// Sender to receiver, typed way: empty and unauthenticated; "that code did not match"
    /// (Spec 3.8).
    case pakeRefused = 11

    /// The exact body length (or nil when it varies) for this type.
    var fixedBodyLength: Int? {
        switch self {
        case .hello: X25519PublicKey.byteCount + HMACSHA256.byteCount
        case .offer: nil
        case .credential: CredentialPlaintext.paddedByteCount + ChaCha20Poly1305.tagByteCount
        case .accept, .receipt, .abort: 1 + ChaCha20Poly1305.tagByteCount
        case .reveal: Commitment.nonceByteCount + ChaCha20Poly1305.tagByteCount
        case .pakeInit: TypedFrames.pakeInitBodyByteCount
        case .pakeReply: TypedFrames.pakeReplyBodyByteCount
        case .pakeConfirm: TypedFrames.tagByteCount
        case .pakeRefused: 0
        }
    }

    /// The type name, e.g. `hello`.
    public var description: String {
        switch self {
        case .hello: "hello"
        case .offer: "offer"
        case .accept: "accept"
        case .credential: "credential"
        case .receipt: "receipt"
        case .abort: "abort"
        case .reveal: "reveal"
        case .pakeInit: "pakeInit"
        case .pakeReply: "pakeReply"
        case .pakeConfirm: "pakeConfirm"
        case .pakeRefused: "pakeRefused"
        }
    }
}

/// Why a session was aborted, carried encrypted in an abort frame (Spec 3.6).
enum AbortReason: UInt8, CaseIterable {
    /// A person cancelled.
    case cancelled = 1
    /// A person rejected the code or the account (or typed a code that did not match).
    case rejected = 2
    /// A second device proved it saw the QR.
    case contested = 3
    /// The receiving device cannot store the account (its store or keychain refused).
    case storeUnavailable = 4
    /// Local authentication failed on the aborting side.
    case notAuthenticated = 5
    /// The aborting side's expiry rule fired (Spec 6.0 step 3).
    case expired = 6

    /// The ending an authenticated abort from the peer leads to; an unknown reason byte from
    /// an authenticated peer ends the session as a failure.
    static func endingOfPeerAbort(_ plaintext: UnsafeRawBufferPointer) -> SessionEnd {
        guard plaintext.count == 1, let reason = AbortReason(rawValue: plaintext[0]) else { return .failed(.malformed(.abortReason)) }
        switch reason {
        case .cancelled: return .cancelled(by: .peer)
        case .rejected: return .rejected(by: .peer)
        case .contested: return .contested
        case .storeUnavailable: return .storeUnavailable(by: .peer)
        case .notAuthenticated: return .notAuthenticated(by: .peer)
        case .expired: return .expired
        }
    }
}
