/// Where the password stands when a session ended, as one device can know it (Spec 6.4): what a
/// screen must tell its person even when the transfer did not succeed.
public enum PasswordFate: Hashable, Sendable {
    /// The password never left the sending device (sender), or never arrived here (receiver).
    case no
    /// The password left and the receiving device confirmed it arrived with its receipt
    /// (sender), or it arrived here and the import ran (receiver; the receipt status says
    /// whether it was kept).
    case yes
    /// The password left the sending device and no receipt came: the receiving device may
    /// hold it. Tell the person to check the other device, and to change the password if that
    /// device is not theirs. Only a sender reports it.
    case mayHave
}

extension SenderOutcome {
    /// Whether the password left this device: ``PasswordFate/yes`` with a receipt,
    /// ``PasswordFate/mayHave`` when it was sent unconfirmed, ``PasswordFate/no`` otherwise.
    public var passwordLeft: PasswordFate {
        switch self {
        case .completed: .yes
        case .deliveredUnconfirmed: .mayHave
        case .ended: .no
        }
    }
}

extension ReceiverOutcome {
    /// Whether the password arrived on this device: ``PasswordFate/yes`` when it arrived and
    /// the import ran (kept or not, as the receipt status says), ``PasswordFate/no`` when the
    /// session ended before. Never ``PasswordFate/mayHave``: this device knows.
    public var passwordArrived: PasswordFate {
        switch self {
        case .completed: .yes
        case .ended: .no
        }
    }
}
