/// How a ``HandoffSenderSession`` runs around its state machines.
public struct SenderSessionOptions: Sendable, Hashable {
    /// The lifetime of each QR (Spec 6.1).
    public var configuration: SenderConfiguration
    /// How many QR codes the session shows in all: when a code expires before any receiving
    /// device proved it saw it, a fresh one (new nonce, keys, expiry and transfer ID, Spec 11.8)
    /// replaces it, until this many were shown. `1` never renews. At least 1.
    public var maximumCodes: Int
    /// Whether the person must authenticate locally before the first QR is shown (Spec 8.7);
    /// the gate before the password is read always runs.
    public var authenticatesBeforeShowingCode: Bool
    /// The routes of the typed way to offer beside the QR (Spec 6.8): empty for the QR alone.
    /// The channel must have a typed way for them (``FrameChannel/serveTyped(_:)``).
    public var typedRoutes: Set<TypedRoute>

    /// Options with the given values; `maximumCodes` below 1 counts as 1.
    public init(configuration: SenderConfiguration = .standard, maximumCodes: Int = 5,
                authenticatesBeforeShowingCode: Bool = false, typedRoutes: Set<TypedRoute> = []) {
        self.configuration = configuration
        self.maximumCodes = max(1, maximumCodes)
        self.authenticatesBeforeShowingCode = authenticatesBeforeShowingCode
        self.typedRoutes = typedRoutes
    }

    /// Three-minute codes, renewed up to four times (five codes, 15 minutes in all), no gate
    /// before the QR.
    public static let standard = SenderSessionOptions()
}

/// Reads the account's password from the app's keychain, right after the person passed the
/// local-authentication gate (Spec 8.7). Return it in guarded memory; the session wipes it
/// once it is sealed. Throw when it cannot be read: the receiving device is told that this
/// device's store failed, and nothing is sent.
public typealias CredentialReader = @Sendable (AccountMetadata) async throws -> SecretBytes

/// What typing a code on the sending device led to (Spec 4.4).
public enum CodeEntryResult: Sendable, Hashable {
    /// The code matched the receiving device's; the account details are on their way.
    case matched
    /// The code did not match; the person may type `remainingEntries` more.
    case mismatch(remainingEntries: Int)
    /// The last allowed entry did not match: the transfer stopped, as rejected.
    case rejected
}
