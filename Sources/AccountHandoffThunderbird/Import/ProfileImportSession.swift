#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

/// One import into a profile between its preparation and its end: the profile's lock, what
/// the profile held when it was prepared, and its key database. Only ``ProfileWork``
/// touches it.
final class ProfileImportSession {
    /// Why writing the account failed.
    enum WriteFailure: Error {
        /// The profile's files changed since the import was prepared; nothing was written.
        case changedMeanwhile
        /// Writing failed and everything written was undone.
        case failed(ThunderbirdProfileError)
        /// Writing failed and undoing it failed too; the journal stays, and the next run
        /// undoes the import.
        case rollbackPending(ThunderbirdProfileError)
    }

    let folder: ProfileFolder
    let state: ProfileState
    let recovery: ImportJournal.Recovery
    /// Whether the profile has no SDR key yet, so the import makes one (and saves the key
    /// database first).
    let needsNewKey: Bool
    private var lock: ProfileLock?
    private var database: ProfileKeyDatabase?
    private let hook: ImportStepHook?

    private init(folder: ProfileFolder, state: ProfileState, recovery: ImportJournal.Recovery, needsNewKey: Bool,
                 lock: ProfileLock, database: ProfileKeyDatabase?, hook: ImportStepHook?) {
        self.folder = folder
        self.state = state
        self.recovery = recovery
        self.needsNewKey = needsNewKey
        self.lock = lock
        self.database = database
        self.hook = hook
    }

    deinit { close() }

    /// Takes the profile's lock, finishes an interrupted import, reads and checks the profile
    /// (version, preferences, logins, writability, key database), and keeps the lock.
    ///
    /// - Throws: the ``ThunderbirdProfileError`` that stops the import; the lock is released.
    static func open(_ directory: URL, primaryPassword: SecretBytes?, hook: ImportStepHook?) throws(ThunderbirdProfileError) -> ProfileImportSession {
        let folder = try ProfileFolder.opened(at: directory)
        let lock = try ProfileLock.acquire(folder)
        do throws(ThunderbirdProfileError) {
            let recovery = try ImportJournal.recover(folder)
            let state = try ProfileState.read(folder)
            try folder.checkWritable()
            let database = try ProfileKeys.openForReading(folder, primaryPassword: primaryPassword)
            let ring = database.map(SecretDecoderRing.init)
            try state.checkLoginsMatch(ring, profilePath: folder.path)
            return ProfileImportSession(folder: folder, state: state, recovery: recovery, needsNewKey: !(ring?.hasDefaultKey ?? false),
                                        lock: lock, database: database, hook: hook)
        } catch {
            lock.release()
            throw error
        }
    }

    /// Writes `offer` with `credential` as `plan` says, as one journaled transaction.
    ///
    /// - Returns: the key of the account written.
    func write(_ offer: AccountMetadata, plan: AccountPreferencesWriter.Plan, credential: SecretBytes,
               primaryPassword: SecretBytes?) throws(WriteFailure) -> String {
        // The lock keeps Thunderbird out, but not an editor: the files must be those the
        // person decided on.
        do {
            guard try folder.read(ProfileState.preferencesName, maximumByteCount: PreferencesFile.maximumByteCount) == state.preferencesBytes,
                  try folder.read(ProfileState.loginsName, maximumByteCount: LoginsFile.maximumByteCount) == state.loginsBytes else {
                throw WriteFailure.changedMeanwhile
            }
        } catch let failure as WriteFailure {
            throw failure
        } catch let error as ThunderbirdProfileError {
            throw .failed(error)
        } catch {
            throw .changedMeanwhile
        }
        var preferences = state.preferences
        let accountKey = AccountPreferencesWriter.write(offer, plan: plan, into: &preferences)
        let saved = [ProfileState.preferencesName, ProfileState.loginsName] + (needsNewKey ? ProfileState.keyDatabaseNames : [])
        let journal: ImportJournal
        do { journal = try ImportJournal.begin(in: folder, saving: saved, hook: hook) } catch { throw .failed(error) }
        do throws(ThunderbirdProfileError) {
            let ring = try keysForWriting(primaryPassword: primaryPassword)
            var logins = state.logins
            try LoginWriter.store(offer, credential: credential, replacing: plan, in: &logins, ring: ring, accounts: state.accounts,
                                  profilePath: folder.path)
            // Every encryption is done: NSS closes its files, and what it wrote is recorded as
            // the import's own.
            database?.close()
            database = nil
            if needsNewKey {
                try journal.recordWritten(ProfileState.keyDatabaseNames)
                try ImportJournal.reach(.keyDatabaseChanged, hook)
            }
            try journal.replace(ProfileState.loginsName, with: logins.bytes)
            try ImportJournal.reach(.loginsWritten, hook)
            try journal.replace(ProfileState.preferencesName, with: preferences.bytes)
            try ImportJournal.reach(.preferencesWritten, hook)
        } catch {
            database?.close()
            database = nil
            do { try journal.rollBack() } catch { throw .rollbackPending(error) }
            throw .failed(error)
        }
        do { try journal.commit() } catch {
            // Not committed when the manifest is still there: undo.
            if (try? folder.status(of: ImportJournal.folderName + "/" + ImportJournal.manifestName)) != nil {
                do { try journal.rollBack() } catch { throw .rollbackPending(error) }
                throw .failed(error)
            }
        }
        return accountKey
    }

    /// Releases the key database and the profile's lock. Idempotent.
    func close() {
        database?.close()
        database = nil
        lock?.release()
        lock = nil
    }

    /// The key database to encrypt with: the one read at preparation when it has the SDR key,
    /// otherwise the database opened for writing (created when the profile has none), which
    /// the journal saved first.
    private func keysForWriting(primaryPassword: SecretBytes?) throws(ThunderbirdProfileError) -> KeyRingForWriting {
        if !needsNewKey, let database { return KeyRingForWriting(ring: SecretDecoderRing(database: database), createsKey: false) }
        database?.close()
        let writable = try ProfileKeyDatabase.open(profilePath: folder.path, mode: .readWrite)
        database = writable
        if writable.isUninitialised {
            try writable.initialiseWithoutPassword()
        } else if writable.needsPrimaryPassword {
            guard let primaryPassword else { throw .primaryPasswordRequired(path: folder.path) }
            try writable.unlock(with: primaryPassword)
        }
        return KeyRingForWriting(ring: SecretDecoderRing(database: writable), createsKey: true)
    }
}

/// A key ring and whether it may make the SDR key.
struct KeyRingForWriting {
    let ring: SecretDecoderRing
    let createsKey: Bool
}

/// Opening a profile's key database for reading.
enum ProfileKeys {
    /// The profile's key database, read-only and unlocked; `nil` when the profile has none.
    ///
    /// - Throws: ``ThunderbirdProfileError/primaryPasswordRequired(path:)`` when a primary
    ///   password protects it and none was given, and the errors of opening and unlocking.
    static func openForReading(_ folder: ProfileFolder, primaryPassword: SecretBytes?) throws(ThunderbirdProfileError) -> ProfileKeyDatabase? {
        guard try folder.status(of: "key4.db") != nil else {
            if try folder.status(of: "key3.db") != nil { throw .keyDatabaseMissing(path: folder.path, hasLegacyDatabase: true) }
            return nil
        }
        let database = try ProfileKeyDatabase.open(profilePath: folder.path, mode: .readOnly)
        if database.needsPrimaryPassword {
            guard let primaryPassword else { throw .primaryPasswordRequired(path: folder.path) }
            try database.unlock(with: primaryPassword)
        }
        return database
    }
}

/// The login an import writes into `logins.json`.
enum LoginWriter {
    /// Files the password of `offer` under `imap://HOST` as Thunderbird does: an existing login
    /// of that origin and user name gets the new password, otherwise a new login is added.
    /// When a replaced account moves to another server or user, its old login is removed
    /// unless another account still uses it.
    static func store(_ offer: AccountMetadata, credential: SecretBytes, replacing plan: AccountPreferencesWriter.Plan,
                      in logins: inout LoginsFile, ring keys: KeyRingForWriting, accounts: [MailAccountPreferences],
                      profilePath: String) throws(ThunderbirdProfileError) {
        let origin = "imap://" + offer.imapHost
        let encryptedUsername: String
        let encryptedPassword: String
        do {
            let username = try SecretBytes(copying: Array(offer.username.utf8))
            defer { username.wipe() }
            encryptedUsername = try keys.ring.encrypt(username, createKey: keys.createsKey)
            encryptedPassword = try keys.ring.encrypt(credential, createKey: false)
        } catch let failure as SecretDecoderRing.Failure {
            switch failure {
            case .nss(let code): throw .keyDatabaseUnusable(path: profilePath, code: code)
            case .noMatchingKey, .malformed, .memory: throw .keyDatabaseUnusable(path: profilePath, code: NSSRuntime.lastError)
            }
        } catch {
            throw .keyDatabaseUnusable(path: profilePath, code: NSSRuntime.lastError)
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        if case .replace(let old) = plan, old.loginOrigin != origin || old.userName != offer.username {
            let stillUsed = accounts.contains { $0.key != old.key && $0.loginOrigin == old.loginOrigin && $0.userName == old.userName }
            if !stillUsed, let previous = login(in: logins, origin: old.loginOrigin, username: old.userName, ring: keys.ring) {
                logins.remove(previous)
            }
        }
        if let existing = login(in: logins, origin: origin, username: offer.username, ring: keys.ring) {
            logins.update(existing, encryptedUsername: encryptedUsername, encryptedPassword: encryptedPassword, now: now)
        } else {
            logins.add(origin: origin, encryptedUsername: encryptedUsername, encryptedPassword: encryptedPassword,
                       guid: "{\(UUID().uuidString.lowercased())}", now: now)
        }
    }

    private static func login(in logins: LoginsFile, origin: String, username: String, ring: SecretDecoderRing) -> LoginsFile.Login? {
        logins.logins(forOrigin: origin).first { (try? ring.decryptText(base64: $0.encryptedUsername)) == username }
    }
}
