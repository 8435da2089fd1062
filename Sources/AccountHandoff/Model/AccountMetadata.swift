/// How the IMAP connection is secured. Plaintext IMAP is deliberately not representable.
public enum IMAPSecurity: UInt8, Hashable, Sendable, CaseIterable {
    /// Implicit TLS (usually port 993).
    case tls = 1
    /// STARTTLS upgrade (usually port 143).
    case startTLS = 2
}

/// The non-secret description of one mail account. It has no password field: the
/// credential travels separately, only after both people confirmed.
public struct AccountMetadata: Hashable, Sendable {
    /// Longest display name in UTF-8 bytes.
    public static let maximumDisplayNameByteCount = 256
    /// Longest e-mail address or username in UTF-8 bytes.
    public static let maximumAddressByteCount = 320
    /// Longest IMAP host name in UTF-8 bytes.
    public static let maximumHostByteCount = 253

    /// Cross-device account identity, preserved unchanged by a transfer.
    public let linkID: AccountLinkID
    /// Name shown to people, may be empty.
    public let displayName: String
    /// The account's e-mail address.
    public let emailAddress: String
    /// The IMAP login name.
    public let username: String
    /// The IMAP server host name.
    public let imapHost: String
    /// The IMAP server port (1...65535).
    public let imapPort: UInt16
    /// How the IMAP connection is secured.
    public let imapSecurity: IMAPSecurity

    /// Validates and stores the fields.
    ///
    /// - Throws: ``HandoffError/malformed(_:)`` naming the first field that is empty where
    ///   it must not be, too long, contains a control character, or (port) is zero.
    public init(linkID: AccountLinkID, displayName: String, emailAddress: String, username: String,
                imapHost: String, imapPort: UInt16, imapSecurity: IMAPSecurity) throws(HandoffError) {
        try Self.check(displayName, .displayName, maximum: Self.maximumDisplayNameByteCount, allowEmpty: true)
        try Self.check(emailAddress, .emailAddress, maximum: Self.maximumAddressByteCount, allowEmpty: false)
        try Self.check(username, .username, maximum: Self.maximumAddressByteCount, allowEmpty: false)
        try Self.check(imapHost, .imapHost, maximum: Self.maximumHostByteCount, allowEmpty: false)
        guard imapPort != 0 else { throw .malformed(.imapPort) }
        self.linkID = linkID
        self.displayName = displayName
        self.emailAddress = emailAddress
        self.username = username
        self.imapHost = imapHost
        self.imapPort = imapPort
        self.imapSecurity = imapSecurity
    }

    private static func check(_ value: String, _ field: HandoffError.Field, maximum: Int, allowEmpty: Bool) throws(HandoffError) {
        let count = value.utf8.count
        guard count <= maximum, allowEmpty || count > 0 else { throw .malformed(field) }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .malformed(field)
        }
    }
}

extension AccountMetadata: CustomStringConvertible {
    /// A one-line summary for people: name, address and endpoint.
    public var description: String {
        "\(displayName) <\(emailAddress)> \(username)@\(imapHost):\(imapPort) (\(imapSecurity == .tls ? "TLS" : "STARTTLS"))"
    }
}

/// What the receiver hands to its app: the metadata plus the credential in guarded memory.
public struct ImportedAccount: Sendable {
    /// The account's metadata, with its link ID unchanged.
    public let metadata: AccountMetadata
    /// The password; wiped when the session ends, so store it before feeding `.importFinished`.
    public let credential: SecretBytes
}
