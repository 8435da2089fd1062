import AccountHandoff
import AccountHandoffImport

/// What a profile holds, read strictly: its preferences, its saved logins and its IMAP
/// accounts, with the exact bytes read, so that a writer can tell whether anything changed.
struct ProfileState {
    static let preferencesName = "prefs.js"
    static let loginsName = "logins.json"
    /// The files of the NSS key database that an import saves before NSS may change them,
    /// with SQLite's side files, which must not outlive a restored database.
    static let keyDatabaseNames = ["key4.db", "key4.db-journal", "key4.db-wal", "key4.db-shm",
                                   "cert9.db", "cert9.db-journal", "cert9.db-wal", "cert9.db-shm", "pkcs11.txt"]

    let preferencesBytes: [UInt8]?
    let preferences: PreferencesFile
    let loginsBytes: [UInt8]?
    let logins: LoginsFile
    let accounts: [MailAccountPreferences]

    /// Reads the profile in `folder`, after checking which Thunderbird last used it.
    ///
    /// - Throws: the ``ThunderbirdProfileError`` that says what is wrong; nothing is written.
    static func read(_ folder: ProfileFolder) throws(ThunderbirdProfileError) -> ProfileState {
        try ProfileCompatibility.check(folder)
        let preferencesBytes = try folder.read(preferencesName, maximumByteCount: PreferencesFile.maximumByteCount)
        let preferences: PreferencesFile
        let accounts: [MailAccountPreferences]
        do {
            preferences = try preferencesBytes.map { (bytes) throws(PreferencesFile.Problem) in try PreferencesFile(parsing: bytes) } ?? PreferencesFile()
            accounts = try MailAccountPreferences.imapAccounts(in: preferences)
        } catch {
            throw .preferencesInvalid(path: folder.path(of: preferencesName), line: error.line, problem: error.reason)
        }
        let loginsBytes = try folder.read(loginsName, maximumByteCount: LoginsFile.maximumByteCount)
        let logins: LoginsFile
        do { logins = try loginsBytes.map { (bytes) throws(LoginsFile.Problem) in try LoginsFile(parsing: bytes) } ?? LoginsFile() } catch {
            throw .loginsInvalid(path: folder.path(of: loginsName), problem: error.reason)
        }
        return ProfileState(preferencesBytes: preferencesBytes, preferences: preferences, loginsBytes: loginsBytes, logins: logins,
                            accounts: accounts)
    }

    /// The accounts that fit the transfer's format, as the conflict rules compare them; the
    /// account key is the local ID.
    func storedAccounts() -> [StoredAccount] {
        accounts.compactMap { account in
            guard let id = LocalAccountID(rawValue: account.key), let metadata = try? account.metadata() else { return nil }
            return StoredAccount(id: id, metadata: metadata, revision: 1)
        }
    }

    /// The password of `account`: the login filed under its origin whose user name is the
    /// account's, decrypted into guarded memory.
    func password(of account: MailAccountPreferences, ring: SecretDecoderRing, profilePath: String) throws(ThunderbirdProfileError) -> SecretBytes {
        for login in logins.logins(forOrigin: account.loginOrigin) {
            guard (try? ring.decryptText(base64: login.encryptedUsername)) == account.userName else { continue }
            do { return try ring.decrypt(base64: login.encryptedPassword) } catch {
                switch error {
                case .noMatchingKey, .malformed: throw .loginsFromAnotherKeyDatabase(path: profilePath + "/" + Self.loginsName)
                case .nss(let code): throw .keyDatabaseUnusable(path: profilePath, code: code)
                case .memory: throw .keyDatabaseUnusable(path: profilePath, code: NSSRuntime.lastError)
                }
            }
        }
        throw .noSavedPassword(emailAddress: account.emailAddress, server: account.hostname)
    }

    /// Checks that the key database reads the saved logins: when there are logins and none of
    /// their user names decrypts, they belong to another profile's key database.
    func checkLoginsMatch(_ ring: SecretDecoderRing?, profilePath: String) throws(ThunderbirdProfileError) {
        let live = logins.logins
        guard !live.isEmpty else { return }
        guard let ring, live.contains(where: { (try? ring.decryptText(base64: $0.encryptedUsername)) != nil }) else {
            throw .loginsFromAnotherKeyDatabase(path: profilePath + "/" + Self.loginsName)
        }
    }
}
