import AccountHandoff
import AccountHandoffImport
import CSQLite

/// The `accounts` table, modelled on the customer's schema (display name, e-mail address,
/// username, IMAP host/port/security) plus the cross-device `account_link_id` (unique, the
/// 16 bytes exactly as received) and the local `account_id` primary key. There is no secret
/// column: `pending_credential` holds the *name* of a staged credential file between the
/// commit and its activation.
enum AccountsTable {
    /// `PRAGMA user_version` of the schema below.
    static let schemaVersion = 1

    static let create = """
        CREATE TABLE accounts (
            account_id TEXT PRIMARY KEY NOT NULL,
            account_link_id BLOB NOT NULL UNIQUE
                CHECK (typeof(account_link_id) = 'blob' AND length(account_link_id) = 16),
            display_name TEXT NOT NULL,
            email_address TEXT NOT NULL,
            username TEXT NOT NULL,
            imap_host TEXT NOT NULL,
            imap_port INTEGER NOT NULL CHECK (imap_port BETWEEN 1 AND 65535),
            imap_security TEXT NOT NULL CHECK (imap_security IN ('tls', 'starttls')),
            revision INTEGER NOT NULL CHECK (revision >= 1),
            pending_credential TEXT
        ) WITHOUT ROWID;
        PRAGMA user_version = 1;
        """

    static let selectAll = """
        SELECT account_id, account_link_id, display_name, email_address, username,
               imap_host, imap_port, imap_security, revision, pending_credential
        FROM accounts ORDER BY account_id
        """

    static let insert = """
        INSERT INTO accounts (account_id, account_link_id, display_name, email_address, username,
                              imap_host, imap_port, imap_security, revision, pending_credential)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1, ?9)
        """

    static let replace = """
        UPDATE accounts SET account_link_id = ?2, display_name = ?3, email_address = ?4, username = ?5,
                            imap_host = ?6, imap_port = ?7, imap_security = ?8,
                            revision = revision + 1, pending_credential = ?9
        WHERE account_id = ?1
        """

    static let finishActivation = """
        UPDATE accounts SET pending_credential = NULL WHERE account_id = ?1 AND pending_credential = ?2
        """

    /// One decoded row.
    struct Row {
        let account: StoredAccount
        let pendingCredential: StagedCredential?
    }

    /// Binds `?1`...`?9` of ``insert`` and ``replace``.
    static func bind(_ change: AccountChange, to statement: SQLiteStatement) throws(SQLiteError) {
        let metadata = change.metadata
        try statement.bind(1, change.account.rawValue)
        try statement.bind(2, blob: metadata.linkID.bytes)
        try statement.bind(3, metadata.displayName)
        try statement.bind(4, metadata.emailAddress)
        try statement.bind(5, metadata.username)
        try statement.bind(6, metadata.imapHost)
        try statement.bind(7, Int64(metadata.imapPort))
        try statement.bind(8, metadata.imapSecurity == .tls ? "tls" : "starttls")
        try statement.bind(9, change.credential.name)
    }

    /// Decodes the current row of a ``selectAll`` statement, validating every field as
    /// ``AccountMetadata`` does.
    static func row(_ statement: SQLiteStatement) throws(AccountStoreError) -> Row {
        guard let idText = statement.text(0), let id = LocalAccountID(rawValue: idText) else { throw .invalidRecord("account_id") }
        guard statement.type(1) == SQLITE_BLOB, let linkID = AccountLinkID(bytes: statement.blob(1)) else {
            throw .invalidRecord("account_link_id")
        }
        guard let displayName = statement.text(2) else { throw .invalidRecord("display_name") }
        guard let email = statement.text(3) else { throw .invalidRecord("email_address") }
        guard let username = statement.text(4) else { throw .invalidRecord("username") }
        guard let host = statement.text(5) else { throw .invalidRecord("imap_host") }
        let portValue = statement.int64(6)
        guard statement.type(6) == SQLITE_INTEGER, let port = UInt16(exactly: portValue) else { throw .invalidRecord("imap_port") }
        let security: IMAPSecurity
        switch statement.text(7) {
        case "tls": security = .tls
        case "starttls": security = .startTLS
        default: throw .invalidRecord("imap_security")
        }
        let revisionValue = statement.int64(8)
        guard revisionValue >= 1 else { throw .invalidRecord("revision") }
        var pending: StagedCredential?
        if !statement.isNull(9) {
            guard let name = statement.text(9), let staged = StagedCredential(name: name) else { throw .invalidRecord("pending_credential") }
            pending = staged
        }
        let metadata: AccountMetadata
        do {
            metadata = try AccountMetadata(linkID: linkID, displayName: displayName, emailAddress: email, username: username,
                                           imapHost: host, imapPort: port, imapSecurity: security)
        } catch {
            throw .invalidRecord(Self.column(for: error))
        }
        return Row(account: StoredAccount(id: id, metadata: metadata, revision: UInt64(revisionValue)), pendingCredential: pending)
    }

    private static func column(for error: HandoffError) -> String {
        guard let field = error.field else { return "metadata" }
        switch field {
        case .displayName: return "display_name"
        case .emailAddress: return "email_address"
        case .username: return "username"
        case .imapHost: return "imap_host"
        case .imapPort: return "imap_port"
        default: return field.rawValue
        }
    }
}
