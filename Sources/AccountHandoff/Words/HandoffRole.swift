/// Which side of a transfer a sentence is written for.
public enum HandoffRole: String, Hashable, Sendable {
    /// The device that shows the QR and sends the account.
    case sender
    /// The device that scans the QR and receives the account.
    case receiver
}
