/// How the IMAP connection is secured. Plaintext IMAP is deliberately not representable.
public enum IMAPSecurity: UInt8, Hashable, Sendable, CaseIterable {
    /// Implicit TLS (usually port 993).
    case tls = 1
    /// STARTTLS upgrade (usually port 143).
    case startTLS = 2
}

/// The non-secret description of one mail account. It has no password field: the
/// credential travels separately, only after both people confirmed.
///
/// Every string follows the rules of Spec 3.7, so it can be shown to a person without
/// reordering, hiding or faking text: no bidirectional controls, invisible or format
/// characters, line breaks, stray spaces, stacked marks, or over-long display names.
public struct AccountMetadata: Sendable {
    /// Longest display name in UTF-8 bytes.
    public static let maximumDisplayNameByteCount = 256
    /// Most display units (characters other than combining marks and joiners) in a display name.
    public static let maximumDisplayNameUnits = AccountText.maximumDisplayUnits
    /// Longest e-mail address or username in UTF-8 bytes.
    public static let maximumAddressByteCount = 320
    /// Longest IMAP host name in bytes.
    public static let maximumHostByteCount = 253

    /// Cross-device account identity, preserved unchanged by a transfer.
    public let linkID: AccountLinkID
    /// Name shown to people, may be empty.
    public let displayName: String
    /// The account's e-mail address.
    public let emailAddress: String
    /// The IMAP login name.
    public let username: String
    /// The IMAP server host name (ASCII letters, digits, hyphens and dots; an internationalised
    /// name as its `xn--` A-label).
    public let imapHost: String
    /// The IMAP server port (1...65535).
    public let imapPort: UInt16
    /// How the IMAP connection is secured.
    public let imapSecurity: IMAPSecurity

    /// Validates and stores the fields (Spec 3.7), in the order of Spec 3.4 step 3.
    ///
    /// - Throws: ``HandoffError/malformed(_:)`` naming the first field that breaks a rule
    ///   (`displayName`, `emailAddress`, `username`, `imapHost`), or `imapPort` for port 0.
    public init(linkID: AccountLinkID, displayName: String, emailAddress: String, username: String,
                imapHost: String, imapPort: UInt16, imapSecurity: IMAPSecurity) throws(HandoffError) {
        try AccountText.validate(displayName, as: .displayName)
        try AccountText.validate(emailAddress, as: .emailAddress)
        try AccountText.validate(username, as: .username)
        try AccountText.validate(imapHost, as: .imapHost)
        guard imapPort != 0 else { throw .malformed(.imapPort) }
        self.linkID = linkID
        self.displayName = displayName
        self.emailAddress = emailAddress
        self.username = username
        self.imapHost = imapHost
        self.imapPort = imapPort
        self.imapSecurity = imapSecurity
    }
}

extension AccountMetadata: Hashable {
    /// Equal when every field is byte for byte the same: Swift's `String` equality treats
    /// canonically equivalent strings as equal, but a transfer carries the exact bytes
    /// (Spec 3.7 applies no normalization), so two accounts that differ in their bytes differ.
    public static func == (lhs: AccountMetadata, rhs: AccountMetadata) -> Bool {
        lhs.linkID == rhs.linkID && lhs.imapPort == rhs.imapPort && lhs.imapSecurity == rhs.imapSecurity
            && lhs.displayName.utf8.elementsEqual(rhs.displayName.utf8)
            && lhs.emailAddress.utf8.elementsEqual(rhs.emailAddress.utf8)
            && lhs.username.utf8.elementsEqual(rhs.username.utf8)
            && lhs.imapHost.utf8.elementsEqual(rhs.imapHost.utf8)
    }

    /// Hashes the fields' bytes, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(linkID)
        for text in [displayName, emailAddress, username, imapHost] { hasher.combine(Array(text.utf8)) }
        hasher.combine(imapPort)
        hasher.combine(imapSecurity)
    }
}

extension AccountMetadata: CustomStringConvertible {
    /// A one-line summary for people: name, address and endpoint.
    public var description: String {
        "\(displayName) <\(emailAddress)> \(username)@\(imapHost):\(imapPort) (\(imapSecurity == .tls ? "TLS" : "STARTTLS"))"
    }
}

/// What the receiver hands to its app with ``ReceiverAction/deliverAccount(_:)``: the metadata
/// plus the credential in guarded memory.
///
/// Who wipes the credential (Spec 6.5): the receiver session (``HandoffReceiverSession``)
/// wipes the delivered credential as soon as the importer's `importAccount(_:)` returns, so
/// an importer reads it and keeps no reference to it. The state machine (``HandoffReceiver``)
/// keeps no reference to it and never wipes it, so nothing it does (an expiry, a late frame,
/// its end) zeroes it under an import that is still running; an app that drives
/// ``HandoffReceiver`` without the session wipes it (``SecretBytes/wipe()``) when its import
/// is done.
public struct ImportedAccount: Sendable {
    /// The account's metadata, with its link ID unchanged.
    public let metadata: AccountMetadata
    /// The password. The receiver session (``HandoffReceiverSession``) wipes the delivered
    /// credential as soon as the importer's `importAccount(_:)` returns.
    public let credential: SecretBytes
}
