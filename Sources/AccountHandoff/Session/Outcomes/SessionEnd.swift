/// Which side took an action.
public enum Party: String, Hashable, Sendable {
    /// This device.
    case local
    /// The other device, through an authenticated message.
    case peer
}

/// What the receiver reports in its receipt after handing the account to its app (Spec 3.6).
public enum ReceiptStatus: UInt8, Hashable, Sendable, CaseIterable {
    /// Stored and validated against the mail server.
    case imported = 1
    /// Validation against the mail server failed; the app discarded the account.
    case validationFailed = 2
    /// The receiving app declined to import for a reason of its own; nothing was changed.
    case declined = 3
    /// The receiving device could not store the account (its store or keychain failed while
    /// importing); nothing was changed.
    case storeFailed = 4
    /// The receiving person cancelled while the account was being imported; nothing was kept.
    case cancelled = 5

    /// A stable identifier (Spec 3.6): `imported`, `validationFailed`, `declined`,
    /// `storeFailed` or `cancelled`.
    public var identifier: String {
        switch self {
        case .imported: "imported"
        case .validationFailed: "validationFailed"
        case .declined: "declined"
        case .storeFailed: "storeFailed"
        case .cancelled: "cancelled"
        }
    }
}

/// How a session ended without a receipt: who stopped it, or what stopped it (Spec 6.4).
public enum SessionEnd: Hashable, Sendable {
    /// A person cancelled.
    case cancelled(by: Party)
    /// A person rejected the short code or the account.
    case rejected(by: Party)
    /// A second device completed key confirmation for the same transfer.
    case contested
    /// That side's account store or keychain could not do what the transfer needs (the
    /// receiver cannot store the account: locked, unwritable, full or missing; the sender
    /// cannot read the password), so it stopped before the password travelled.
    case storeUnavailable(by: Party)
    /// Local authentication (biometrics, passcode or password) failed on that side.
    case notAuthenticated(by: Party)
    /// The expiry passed.
    case expired
    /// The transport was lost, or the peer broke the protocol with an authenticated message.
    case failed(HandoffError)

    /// A stable identifier (Spec 6.4): `cancelled.local`, `contested`, `failed.transportLost`, ...
    public var identifier: String {
        switch self {
        case .cancelled(let party): "cancelled.\(party.rawValue)"
        case .rejected(let party): "rejected.\(party.rawValue)"
        case .contested: "contested"
        case .storeUnavailable(let party): "storeUnavailable.\(party.rawValue)"
        case .notAuthenticated(let party): "notAuthenticated.\(party.rawValue)"
        case .expired: "expired"
        case .failed(let error): "failed.\(error.identifier)"
        }
    }

    /// The ending as an error, for apps that report every unsuccessful end through `throw`:
    /// `nil` for a local cancel or reject (the person chose it), ``HandoffError/cancelledByPeer``,
    /// ``HandoffError/rejectedByPeer`` and ``HandoffError/anotherDeviceJoined`` for the peer's
    /// decisions, and the underlying error otherwise.
    public var error: HandoffError? {
        switch self {
        case .cancelled(by: .local), .rejected(by: .local): nil
        case .cancelled(by: .peer): .cancelledByPeer
        case .rejected(by: .peer): .rejectedByPeer
        case .contested: .anotherDeviceJoined
        case .storeUnavailable(by: .local): .storeUnavailable
        case .storeUnavailable(by: .peer): .peerStoreUnavailable
        case .notAuthenticated(by: .local): .notAuthenticated
        case .notAuthenticated(by: .peer): .peerNotAuthenticated
        case .expired: .expired
        case .failed(let error): error
        }
    }
}
