extension TransferOutcome {
    /// A stable identifier (Spec 6.4) such as `completed.imported`, `cancelled.peer`,
    /// `expired` or `failed.transportLost`; used by `Spec/` and `Vectors/`.
    public var identifier: String {
        switch self {
        case .completed(let status): "completed.\(status.identifier)"
        case .cancelled(let party): "cancelled.\(party.rawValue)"
        case .rejected(let party): "rejected.\(party.rawValue)"
        case .contested: "contested"
        case .expired: "expired"
        case .failed(let error): "failed.\(error.identifier)"
        }
    }
}

extension TransferOutcome {
    /// The outcome as an error, for apps that report every unsuccessful end through `throw`:
    /// `nil` for a completed transfer, ``HandoffError/cancelledByPeer``,
    /// ``HandoffError/rejectedByPeer`` and ``HandoffError/anotherDeviceJoined`` for the peer's
    /// decisions, and the underlying error otherwise. A local cancel or reject maps to `nil`
    /// as well: the person chose it, there is nothing to report.
    public var error: HandoffError? {
        switch self {
        case .completed, .cancelled(by: .local), .rejected(by: .local): nil
        case .cancelled(by: .peer): .cancelledByPeer
        case .rejected(by: .peer): .rejectedByPeer
        case .contested: .anotherDeviceJoined
        case .expired: .expired
        case .failed(let error): error
        }
    }
}

extension ReceiptStatus {
    /// A stable identifier (Spec 3.6): `imported`, `validationFailed` or `declined`.
    public var identifier: String {
        switch self {
        case .imported: "imported"
        case .validationFailed: "validationFailed"
        case .declined: "declined"
        }
    }
}
