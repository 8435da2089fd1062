/// What a device declares to the other device about its local-authentication gate (Spec 3.4
/// `senderGate`, 3.6 `receiverGate`, 8.7): whether its person is asked to prove who they are
/// before the password is read (sending device) or accepted (receiving device).
///
/// Each screen shows the other device's declaration before its own commitment: the receiving
/// screen with the offered account, the sending screen before the password is read
/// (``sentence(shownBy:in:)``).
///
/// - Warning: A declaration is what the other device says about itself. It tells an honest
///   person what an honest device did; a malicious device can declare ``asks`` and ask nobody
///   (Spec 8.7). Never treat it as proof.
public enum GateDeclaration: UInt8, Sendable, Hashable, CaseIterable {
    /// The device asks its person (local authentication) before the password is read or
    /// accepted; from a receiving device: its person passed that gate before accepting.
    case asks = 1
    /// The device does not ask: the app or the person (the CLI's `--no-local-auth`) turned
    /// its gate off.
    case skipped = 2

    /// The wire byte (Spec 3.4, 3.6).
    package var byte: UInt8 { rawValue }
}
