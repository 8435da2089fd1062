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
