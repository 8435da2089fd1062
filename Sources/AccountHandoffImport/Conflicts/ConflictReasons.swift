/// Why a stored account conflicts with an offered one.
public struct ConflictReasons: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Wraps raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Both have the same ``AccountHandoff/AccountLinkID``: it is the same account.
    public static let sameLinkID = ConflictReasons(rawValue: 1 << 0)
    /// Both have the same e-mail address, IMAP host and IMAP port.
    public static let sameAddressAndServer = ConflictReasons(rawValue: 1 << 1)
}
