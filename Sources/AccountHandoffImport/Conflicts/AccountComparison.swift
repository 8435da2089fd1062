import AccountHandoff

/// One row of a side-by-side view of the offered and a stored account. Never a secret.
public struct ComparedField: Hashable, Sendable {
    /// Which field the row shows.
    public enum Field: String, Hashable, Sendable, CaseIterable {
        case displayName, emailAddress, username, imapServer, imapSecurity, accountLinkID

        /// A label for people, e.g. `E-mail address`.
        public var label: String {
            switch self {
            case .displayName: "Display name"
            case .emailAddress: "E-mail address"
            case .username: "Username"
            case .imapServer: "IMAP server"
            case .imapSecurity: "Security"
            case .accountLinkID: "Account link ID"
            }
        }
    }

    /// The field.
    public let field: Field
    /// The offered account's value.
    public let offered: String
    /// The stored account's value.
    public let existing: String

    /// Whether the values differ.
    public var differs: Bool { offered != existing }

    /// The rows for every field, in display order.
    public static func compare(offered: AccountMetadata, existing: AccountMetadata) -> [ComparedField] {
        Field.allCases.map { field in
            ComparedField(field: field, offered: value(field, of: offered), existing: value(field, of: existing))
        }
    }

    private static func value(_ field: Field, of account: AccountMetadata) -> String {
        switch field {
        case .displayName: account.displayName
        case .emailAddress: account.emailAddress
        case .username: account.username
        case .imapServer: "\(account.imapHost):\(account.imapPort)"
        case .imapSecurity: account.imapSecurity == .tls ? "TLS" : "STARTTLS"
        case .accountLinkID: account.linkID.description
        }
    }
}
