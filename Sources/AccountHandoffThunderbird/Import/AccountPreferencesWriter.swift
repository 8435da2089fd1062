import AccountHandoff

/// The preferences an import writes, as Thunderbird's account setup writes them for an IMAP
/// account: `mail.account.KEY.{server,identities}`, `mail.server.SERVER.*`,
/// `mail.identity.ID.*`, the account appended to `mail.accountmanager.accounts`, and the
/// AccountLinkID in a preference of its own (``MailAccountPreferences/linkIDPreference(of:)``).
/// The account model carries no outgoing (SMTP) server, so none is written.
enum AccountPreferencesWriter {
    /// What an import does to the accounts.
    enum Plan: Equatable {
        /// A new account with new account, server and identity keys.
        case add
        /// The existing account keeps its keys; its server and identity take the offered values.
        case replace(MailAccountPreferences)
    }

    /// Writes `offer` into `preferences` as `plan` says.
    ///
    /// - Returns: the key of the account written.
    static func write(_ offer: AccountMetadata, plan: Plan, into preferences: inout PreferencesFile) -> String {
        switch plan {
        case .add:
            let account = "account\(nextNumber(prefix: "mail.account.account", in: preferences, atLeast: lastKey(preferences)))"
            let server = "server\(nextNumber(prefix: "mail.server.server", in: preferences, atLeast: 0))"
            let identity = "id\(nextNumber(prefix: "mail.identity.id", in: preferences, atLeast: 0))"
            let existing = (try? MailAccountPreferences.accountKeys(in: preferences)) ?? []
            preferences.set("mail.accountmanager.accounts", .string((existing + [account]).joined(separator: ",")))
            if let number = Int32(account.dropFirst("account".count)), number > lastKey(preferences) {
                preferences.set("mail.account.lastKey", .integer(number))
            }
            if case .string(let current)? = preferences["mail.accountmanager.defaultaccount"], existing.contains(current) {
                // The person's default account stays the default.
            } else {
                preferences.set("mail.accountmanager.defaultaccount", .string(account))
            }
            preferences.set("mail.account.\(account).server", .string(server))
            preferences.set("mail.account.\(account).identities", .string(identity))
            writeServer(offer, key: server, into: &preferences, previous: nil)
            writeIdentity(offer, key: identity, into: &preferences)
            preferences.set(MailAccountPreferences.linkIDPreference(of: account), .string(offer.linkID.description))
            return account
        case .replace(let old):
            writeServer(offer, key: old.serverKey, into: &preferences, previous: old)
            let identity: String
            if let existing = old.identityKey {
                identity = existing
            } else {
                identity = "id\(nextNumber(prefix: "mail.identity.id", in: preferences, atLeast: 0))"
                preferences.set("mail.account.\(old.key).identities", .string(identity))
            }
            writeIdentity(offer, key: identity, into: &preferences)
            preferences.set(MailAccountPreferences.linkIDPreference(of: old.key), .string(offer.linkID.description))
            return old.key
        }
    }

    private static func writeServer(_ offer: AccountMetadata, key: String, into preferences: inout PreferencesFile, previous: MailAccountPreferences?) {
        let server = "mail.server.\(key)."
        if let previous, previous.hostname.lowercased() != offer.imapHost.lowercased() || previous.userName != offer.username {
            // Another mailbox: Thunderbird makes a fresh local folder for it rather than reusing
            // the old server's.
            preferences.remove(server + "directory")
            preferences.remove(server + "directory-rel")
        }
        if previous == nil || preferences[server + "name"] == .string(previous?.emailAddress ?? "") {
            preferences.set(server + "name", .string(offer.emailAddress))
        }
        preferences.set(server + "type", .string("imap"))
        preferences.set(server + "hostname", .string(offer.imapHost))
        preferences.set(server + "port", .integer(Int32(offer.imapPort)))
        preferences.set(server + "socketType", .integer(offer.imapSecurity == .tls ? 3 : 2))
        preferences.set(server + "userName", .string(offer.username))
        preferences.set(server + "authMethod", .integer(3))
        // As the account setup does: check for mail when Thunderbird starts, and every 10 minutes.
        preferences.set(server + "login_at_startup", .boolean(true))
        preferences.set(server + "check_new_mail", .boolean(true))
        preferences.set(server + "check_time", .integer(10))
        preferences.set(server + "valid", .boolean(true))
    }

    private static func writeIdentity(_ offer: AccountMetadata, key: String, into preferences: inout PreferencesFile) {
        let identity = "mail.identity.\(key)."
        preferences.set(identity + "fullName", .string(offer.displayName))
        preferences.set(identity + "useremail", .string(offer.emailAddress))
        preferences.set(identity + "valid", .boolean(true))
    }

    private static func lastKey(_ preferences: PreferencesFile) -> Int32 {
        if case .integer(let value)? = preferences["mail.account.lastKey"] { return value }
        return 0
    }

    /// One more than the largest number N of any preference `PREFIXN.` (or of `atLeast`), so
    /// a new key never reuses one that any preference mentions.
    private static func nextNumber(prefix: String, in preferences: PreferencesFile, atLeast floor: Int32) -> Int32 {
        var largest = floor
        for name in preferences.names(withPrefix: prefix) {
            let digits = name.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
            if let number = Int32(digits), name.dropFirst(prefix.count + digits.count).hasPrefix(".") { largest = max(largest, number) }
        }
        if prefix == "mail.account.account" {
            for key in (try? MailAccountPreferences.accountKeys(in: preferences)) ?? [] where key.hasPrefix("account") {
                if let number = Int32(key.dropFirst("account".count)) { largest = max(largest, number) }
            }
        }
        return largest + 1
    }
}
