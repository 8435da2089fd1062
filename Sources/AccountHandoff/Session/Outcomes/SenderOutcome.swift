/// How a sender session ended. Exactly one per session (Spec 6.4).
public enum SenderOutcome: Hashable, Sendable {
    /// The receiver answered with a receipt.
    case completed(ReceiptStatus)
    /// The credential had already been sent when the session ended without a receipt: the
    /// receiving device may hold the password. It is never reported as if nothing had left.
    case deliveredUnconfirmed(SessionEnd)
    /// The session ended before any credential left this device.
    case ended(SessionEnd)

    /// A stable identifier (Spec 6.4): `completed.imported`, `deliveredUnconfirmed.expired`,
    /// `cancelled.local`, ...
    public var identifier: String {
        switch self {
        case .completed(let status): "completed.\(status.identifier)"
        case .deliveredUnconfirmed(let end): "deliveredUnconfirmed.\(end.identifier)"
        case .ended(let end): end.identifier
        }
    }

    /// Whether the credential left this device (a receipt arrived, or it was sent unconfirmed).
    public var credentialLeft: Bool {
        switch self {
        case .completed, .deliveredUnconfirmed: true
        case .ended: false
        }
    }

    /// The outcome as an error for apps that `throw` unsuccessful ends: `nil` for a completed
    /// transfer and a local cancel or reject.
    ///
    /// - Warning: `nil` says nothing about the password: after a local cancel it may have left
    ///   (``deliveredUnconfirmed(_:)``). Read ``passwordLeft`` for that.
    public var error: HandoffError? {
        switch self {
        case .completed: nil
        case .deliveredUnconfirmed(let end), .ended(let end): end.error
        }
    }
}

/// How a receiver session ended. Exactly one per session (Spec 6.4).
public enum ReceiverOutcome: Hashable, Sendable {
    /// This device's import finished with this status, and it sent the receipt.
    case completed(ReceiptStatus)
    /// The session ended before any credential reached the app: nothing was imported.
    case ended(SessionEnd)

    /// A stable identifier (Spec 6.4): `completed.imported`, `cancelled.peer`, `expired`, ...
    public var identifier: String {
        switch self {
        case .completed(let status): "completed.\(status.identifier)"
        case .ended(let end): end.identifier
        }
    }

    /// The outcome as an error for apps that `throw` unsuccessful ends: `nil` for a completed
    /// transfer and a local cancel or reject.
    public var error: HandoffError? {
        switch self {
        case .completed: nil
        case .ended(let end): end.error
        }
    }
}
