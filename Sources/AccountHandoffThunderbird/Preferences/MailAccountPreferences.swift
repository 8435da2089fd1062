import AccountHandoff
import Foundation

/// One IMAP account of a profile, as `prefs.js` describes it: `mail.account.KEY.*` names its
/// server and identities, `mail.server.SERVER.*` the IMAP server, `mail.identity.ID.*` the
/// person's name and address.
struct MailAccountPreferences: Equatable {
    /// The account's key (`account3`): its local ID on this device.
    let key: String
    let serverKey: String
    /// The account's first identity, which Thunderbird sends from by default.
    let identityKey: String?
    let hostname: String
    /// The configured port; `nil` uses the default for the security (993 with TLS, 143 otherwise).
    let port: Int32?
    /// Thunderbird's `nsMsgSocketType`: 0 plain, 1 STARTTLS if offered, 2 STARTTLS, 3 TLS.
    let socketType: Int32
    /// Thunderbird's `nsMsgAuthMethod`: 3 normal password, 4 encrypted password, 10 OAuth2, ...
    let authMethod: Int32
    let userName: String
    let emailAddress: String
    let fullName: String
    /// The link ID this library keeps on accounts it imported (``linkIDPreference(of:)``).
    let storedLinkID: AccountLinkID?

    /// The preference that keeps an imported account's AccountLinkID.
    static func linkIDPreference(of accountKey: String) -> String { "mail.account.\(accountKey).handoff_link_id" }

    /// Where Thunderbird files the account's password: `imap://HOST`.
    var loginOrigin: String { "imap://" + hostname }

    /// The port the account connects to.
    var effectivePort: Int32 {
        if let port, port > 0 { return port }
        return socketType == 3 ? 993 : 143
    }

    /// The account's identity on every device: the stored link ID, or one derived from the
    /// server, user name and address, so that an account Thunderbird set up itself keeps the
    /// same identity each time it is sent.
    ///
    /// - Throws: ``ThunderbirdProfileError/keyDatabaseUnusable(path:code:)`` when NSS, which
    ///   computes the derived ID's hash, cannot run.
    func linkID() throws(ThunderbirdProfileError) -> AccountLinkID {
        if let storedLinkID { return storedLinkID }
        guard let derived = Self.derivedLinkID(host: hostname, userName: userName, emailAddress: emailAddress) else {
            throw .keyDatabaseUnusable(path: "(none)", code: NSSRuntime.lastError)
        }
        return derived
    }

    /// The account in the transfer's format (Spec 3.7).
    ///
    /// - Throws: ``ThunderbirdProfileError/unsupportedAccount(emailAddress:reason:)`` when it
    ///   does not use TLS or STARTTLS, does not sign in with a password, or has a field the
    ///   format does not carry.
    func metadata() throws(ThunderbirdProfileError) -> AccountMetadata {
        let security: IMAPSecurity
        switch socketType {
        case 3: security = .tls
        case 2: security = .startTLS
        default: throw .unsupportedAccount(emailAddress: emailAddress, reason: .noTransportSecurity)
        }
        switch authMethod {
        case 3, 4: break  // a normal or an encrypted (CRAM-MD5) password
        case 10: throw .unsupportedAccount(emailAddress: emailAddress, reason: .signsInWithOAuth)
        default: throw .unsupportedAccount(emailAddress: emailAddress, reason: .authenticationMethod(authMethod))
        }
        guard let port = UInt16(exactly: effectivePort), port > 0 else {
            throw .unsupportedAccount(emailAddress: emailAddress, reason: .fieldNotTransferable("port"))
        }
        do {
            return try AccountMetadata(linkID: try linkID(), displayName: fullName, emailAddress: emailAddress, username: userName,
                                       imapHost: hostname, imapPort: port, imapSecurity: security)
        } catch let error as ThunderbirdProfileError {
            throw error
        } catch let error as HandoffError {
            let names: [HandoffError.Field: String] = [.displayName: "display name", .emailAddress: "e-mail address",
                                                       .username: "user name", .imapHost: "server name"]
            throw .unsupportedAccount(emailAddress: emailAddress, reason: .fieldNotTransferable(error.field.flatMap { names[$0] } ?? "settings"))
        } catch {
            throw .unsupportedAccount(emailAddress: emailAddress, reason: .fieldNotTransferable("settings"))
        }
    }

    /// Every IMAP account of `preferences`, in the order of `mail.accountmanager.accounts`.
    ///
    /// - Throws: ``PreferencesFile/Problem`` when an account's preference has the wrong kind of
    ///   value (a port that is text, say) or a required one is missing.
    static func imapAccounts(in preferences: PreferencesFile) throws(PreferencesFile.Problem) -> [MailAccountPreferences] {
        var accounts: [MailAccountPreferences] = []
        for key in try accountKeys(in: preferences) {
            guard let serverKey = try text("mail.account.\(key).server", preferences) else { continue }
            guard try text("mail.server.\(serverKey).type", preferences) == "imap" else { continue }
            let server = "mail.server.\(serverKey)."
            guard let hostname = try text(server + "hostname", preferences) else {
                throw problem(preferences, "mail.account.\(key).server", ThunderbirdDiagnosis("diagnosis.account.serverWithoutHost", .text(serverKey)))
            }
            let identities = try text("mail.account.\(key).identities", preferences).map(list) ?? []
            let identity = identities.first
            var emailAddress: String?
            var fullName: String?
            if let identity {
                emailAddress = try text("mail.identity.\(identity).useremail", preferences)
                fullName = try text("mail.identity.\(identity).fullName", preferences)
            }
            let linkName = linkIDPreference(of: key)
            var linkID: AccountLinkID?
            if let stored = try text(linkName, preferences) {
                guard let uuid = UUID(uuidString: stored) else { throw problem(preferences, linkName, ThunderbirdDiagnosis("diagnosis.account.notAUUID", .text(linkName))) }
                linkID = AccountLinkID(uuid: uuid)
            }
            // Unset values fall back to the profile's defaults, then to Thunderbird's own
            // (mailnews.js: socketType 0, authMethod 3).
            let socketType = try integer(server + "socketType", preferences)
            let defaultSocketType = try integer("mail.server.default.socketType", preferences)
            let authMethod = try integer(server + "authMethod", preferences)
            let defaultAuthMethod = try integer("mail.server.default.authMethod", preferences)
            accounts.append(MailAccountPreferences(
                key: key, serverKey: serverKey, identityKey: identity, hostname: hostname,
                port: try integer(server + "port", preferences),
                socketType: socketType ?? defaultSocketType ?? 0,
                authMethod: authMethod ?? defaultAuthMethod ?? 3,
                userName: try text(server + "userName", preferences) ?? "",
                emailAddress: emailAddress ?? "", fullName: fullName ?? "",
                storedLinkID: linkID))
        }
        return accounts
    }

    /// The keys of `mail.accountmanager.accounts`.
    static func accountKeys(in preferences: PreferencesFile) throws(PreferencesFile.Problem) -> [String] {
        try text("mail.accountmanager.accounts", preferences).map(list) ?? []
    }

    /// A comma-separated list of keys, without spaces and empty items.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { String(Substring($0).trimmingSpaces) }.filter { !$0.isEmpty }
    }

    static func text(_ name: String, _ preferences: PreferencesFile) throws(PreferencesFile.Problem) -> String? {
        switch preferences[name] {
        case nil: return nil
        case .string(let value)?: return value
        case .integer?, .boolean?: throw problem(preferences, name, ThunderbirdDiagnosis("diagnosis.account.notText", .text(name)))
        }
    }

    static func integer(_ name: String, _ preferences: PreferencesFile) throws(PreferencesFile.Problem) -> Int32? {
        switch preferences[name] {
        case nil: return nil
        case .integer(let value)?: return value
        case .string?, .boolean?: throw problem(preferences, name, ThunderbirdDiagnosis("diagnosis.account.notANumber", .text(name)))
        }
    }

    private static func problem(_ preferences: PreferencesFile, _ name: String, _ reason: ThunderbirdDiagnosis) -> PreferencesFile.Problem {
        PreferencesFile.Problem(line: preferences.lineNumber(of: name) ?? 0, reason: reason)
    }

    /// A name-based UUID (version 8, RFC 9562) from SHA-256 of the account's server, user name
    /// and address, so the same account gets the same link ID on every send.
    static func derivedLinkID(host: String, userName: String, emailAddress: String) -> AccountLinkID? {
        let input = ["AccountHandoff Thunderbird link ID 1", host.lowercased(), userName, emailAddress.lowercased()]
            .joined(separator: "\u{0}")
        guard let digest = SHA256Digest.of(Array(input.utf8)) else { return nil }
        var bytes = Array(digest.prefix(AccountLinkID.byteCount))
        bytes[6] = bytes[6] & 0x0F | 0x80  // version 8
        bytes[8] = bytes[8] & 0x3F | 0x80  // the RFC variant
        return AccountLinkID(bytes: bytes)
    }
}
