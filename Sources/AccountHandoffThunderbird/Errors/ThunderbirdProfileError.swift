#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff

/// Why a Thunderbird profile could not be found, read or written. Every case is secret-free
/// (no password, no user name) and its ``description`` is whole sentences that say what to do.
/// Whenever an import reports one of these, the profile was left as it was.
public enum ThunderbirdProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No `profiles.ini` was found in the folder where Thunderbird keeps its profile list.
    case noProfileList(folder: String)
    /// `profiles.ini` or `installs.ini` could not be understood at `line`.
    case profileListInvalid(path: String, line: Int, problem: String)
    /// No profile has this name (nor is it a folder path); the profiles that exist are listed.
    case profileNotFound(name: String, available: [ThunderbirdProfileSummary])
    /// Several profiles exist and none is marked as the default.
    case ambiguousProfile(available: [ThunderbirdProfileSummary])
    /// The path is not a folder (or cannot be opened as one).
    case notAProfileFolder(path: String, code: Int32)
    /// The profile's path holds a character (`'`, `"` or `\`) that NSS cannot be given.
    case unsupportedProfilePath(path: String)
    /// The profile was last used by a Thunderbird newer than the versions this library knows.
    case newerThunderbird(path: String, version: String, newestKnownMajorVersion: Int)
    /// `compatibility.ini` could not be understood.
    case compatibilityInvalid(path: String, problem: String)
    /// Thunderbird holds the profile's lock (`processID` when the system names the holder).
    case thunderbirdRunning(path: String, processID: Int32?)
    /// Another import into this profile is running in this program.
    case importAlreadyRunning(path: String)
    /// The profile's folder or one of its files cannot be written.
    case readOnly(path: String)
    /// A file in the profile is a symbolic link or not a regular file; it is left alone.
    case notARegularFile(path: String)
    /// `prefs.js` holds a line this library does not understand (or a duplicate preference).
    case preferencesInvalid(path: String, line: Int, problem: String)
    /// `logins.json` is not the JSON Thunderbird writes.
    case loginsInvalid(path: String, problem: String)
    /// `logins.json` holds logins that the profile's `key4.db` cannot decrypt: they were
    /// encrypted with another profile's key database.
    case loginsFromAnotherKeyDatabase(path: String)
    /// The profile has no `key4.db` (it never stored a password), or an old `key3.db` only.
    case keyDatabaseMissing(path: String, hasLegacyDatabase: Bool)
    /// NSS could not use the profile's key database; `code` is its error number.
    case keyDatabaseUnusable(path: String, code: Int32)
    /// The key database is protected by a primary password and none was given.
    case primaryPasswordRequired(path: String)
    /// The primary password given does not unlock the key database.
    case primaryPasswordWrong(path: String)
    /// The profile holds no IMAP account.
    case noIMAPAccount(path: String)
    /// No IMAP account has this e-mail address; the addresses that exist are listed.
    case accountNotFound(emailAddress: String, available: [String])
    /// Several IMAP accounts exist and none was chosen; their addresses are listed.
    case ambiguousAccount(available: [String])
    /// The account cannot be transferred, for the reason given.
    case unsupportedAccount(emailAddress: String, reason: UnsupportedAccountReason)
    /// The profile has no saved password for the account's IMAP server.
    case noSavedPassword(emailAddress: String, server: String)
    /// Thunderbird already has an account for the offered user on the offered server, which
    /// the conflict rules do not let the import replace (another address or port).
    case serverAlreadyConfigured(emailAddress: String, server: String)
    /// A file operation failed; `code` is the `errno` value.
    case fileOperationFailed(path: String, operation: String, code: Int32)
    /// The import journal left by an interrupted import cannot be understood, so it was left
    /// for a person to look at.
    case journalInvalid(path: String, problem: String)

    /// Whole sentences for people: what is wrong and what to do next.
    public var description: String {
        switch self {
        case .noProfileList(let folder):
            "No Thunderbird profile list (profiles.ini) was found in \(folder). Start Thunderbird once so that it creates a profile, or give the path of a profile folder."
        case .profileListInvalid(let path, let line, let problem):
            "Thunderbird's profile list \(path) could not be read at line \(line) (\(problem)). Give the path of the profile folder instead, or let Thunderbird repair the list by starting it."
        case .profileNotFound(let name, let available):
            "No Thunderbird profile is named \(name). \(Self.listing(available))"
        case .ambiguousProfile(let available):
            "Several Thunderbird profiles exist and none is marked as the default. \(Self.listing(available))"
        case .notAProfileFolder(let path, let code):
            "The Thunderbird profile folder \(path) cannot be opened: \(SystemErrorWords.cause(code)). Check the path, or name a profile from Thunderbird's profile list."
        case .unsupportedProfilePath(let path):
            "The profile path \(path) contains a quote or a backslash, which the key database library cannot be given. Move or link the profile to a path without them and try again."
        case .newerThunderbird(let path, let version, let newest):
            "The profile \(path) was last used by Thunderbird \(version), newer than the versions this program knows (up to \(newest)), so this program leaves it alone. Update this program, then try again."
        case .compatibilityInvalid(let path, let problem):
            "The profile's compatibility.ini in \(path) could not be read (\(problem)), so the Thunderbird version that last used it is unknown and the profile is left unchanged. Start Thunderbird with the profile once, then try again."
        case .thunderbirdRunning(let path, let processID?):
            "Thunderbird (process \(processID)) is using the profile \(path), so it is left unchanged. Quit Thunderbird, then try again."
        case .thunderbirdRunning(let path, nil):
            "Thunderbird is using the profile \(path), so it is left unchanged. Quit Thunderbird, then try again."
        case .importAlreadyRunning(let path):
            "Another import into the profile \(path) is running in this program, so this one was not started. Wait for it to finish, then try again."
        case .readOnly(let path):
            "The Thunderbird profile \(path) cannot be written (it is read-only or not yours), so it is left unchanged. Make it writable for your user, then try again."
        case .notARegularFile(let path):
            "The profile file \(path) is a symbolic link or not a regular file, so it is left alone. Replace it with a regular file (Thunderbird writes one when it saves), then try again."
        case .preferencesInvalid(let path, let line, let problem):
            "The preferences file \(path) could not be read at line \(line) (\(problem)), so the profile is left unchanged. Start Thunderbird with the profile once, which rewrites the file, or restore it from a backup."
        case .loginsInvalid(let path, let problem):
            "The saved logins file \(path) could not be read (\(problem)), so the profile is left unchanged. Start Thunderbird with the profile once, or restore the file from a backup."
        case .loginsFromAnotherKeyDatabase(let path):
            "The saved logins in \(path) were encrypted with another profile's key database (key4.db), so this profile's key cannot read them and the profile is left unchanged. Put back the key4.db that belongs to this logins.json, then try again."
        case .keyDatabaseMissing(let path, true):
            "The profile \(path) has only the old key database format (key3.db). Start a current Thunderbird with the profile once, which converts it, then try again."
        case .keyDatabaseMissing(let path, false):
            "The profile \(path) has no key database (key4.db), so it holds no saved password. Save the account's password in Thunderbird first, then try again."
        case .keyDatabaseUnusable(let path, let code):
            "The key database (key4.db) of the profile \(path) could not be used: \(NSSErrorWords.cause(code)). Start Thunderbird with the profile once to check it, then try again."
        case .primaryPasswordRequired(let path):
            "The saved passwords of the profile \(path) are protected by a primary password. Give that primary password when asked, then try again."
        case .primaryPasswordWrong(let path):
            "The primary password does not unlock the saved passwords of the profile \(path). Type the primary password you use in Thunderbird, then try again."
        case .noIMAPAccount(let path):
            "The profile \(path) holds no IMAP account. Set up the account in Thunderbird first, then try again."
        case .accountNotFound(let address, let available):
            "The profile holds no IMAP account with the address \(address). Its IMAP accounts are: \(available.joined(separator: ", ")). Name one of them."
        case .ambiguousAccount(let available):
            "The profile holds several IMAP accounts: \(available.joined(separator: ", ")). Name the one to send by its address."
        case .unsupportedAccount(let address, let reason):
            "The account \(address) cannot be transferred: \(reason.clause). \(reason.nextStep)"
        case .noSavedPassword(let address, let server):
            "The profile has no saved password for the account \(address) on \(server). Let Thunderbird save the password (check mail once and tick the box to remember it), then try again."
        case .serverAlreadyConfigured(let address, let server):
            "Thunderbird already has an account (\(address)) for the same user on the server \(server), and Thunderbird keeps one account per user and server, so the profile is left unchanged. Remove that account in Thunderbird, or send it instead, then start a new transfer."
        case .fileOperationFailed(let path, let operation, let code):
            "The profile file \(path) could not be \(operation): \(SystemErrorWords.cause(code)). \(Self.nextStep(for: code))"
        case .journalInvalid(let path, let problem):
            "An interrupted import left a journal in \(path) that cannot be read (\(problem)), so nothing was undone. Move that folder away after checking the profile with Thunderbird, then try again."
        }
    }

    private static func listing(_ profiles: [ThunderbirdProfileSummary]) -> String {
        guard !profiles.isEmpty else { return "No profile is listed; give the path of a profile folder." }
        let names = profiles.map { "\($0.name) (\($0.path))" }.joined(separator: ", ")
        return "The profiles are: \(names). Name one of them, or give the path of its folder."
    }

    private static func nextStep(for code: Int32) -> String {
        switch code {
        case ENOSPC, EDQUOT: "The profile is unchanged; free some space, then try again."
        case EROFS, EACCES, EPERM: "The profile is unchanged; make it writable for your user, then try again."
        default: "The profile is unchanged; check the disk and the folder's permissions, then try again."
        }
    }
}

extension ThunderbirdProfileError: LocalizedErrorSentence {}

/// A profile as the error sentences list it: its name and its folder.
public struct ThunderbirdProfileSummary: Hashable, Sendable {
    /// The profile's name in Thunderbird's profile list.
    public let name: String
    /// The profile's folder.
    public let path: String

    /// A summary.
    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }
}

/// Why a Thunderbird account cannot be transferred.
public enum UnsupportedAccountReason: Hashable, Sendable {
    /// The server is reached without TLS (or with the obsolete "STARTTLS if available").
    case noTransportSecurity
    /// The account signs in with OAuth2: there is no password to transfer.
    case signsInWithOAuth
    /// The account signs in with a method other than a password (Thunderbird's number).
    case authenticationMethod(Int32)
    /// A field does not fit the transfer's account format (Spec 3.7); the field is named.
    case fieldNotTransferable(String)

    /// The reason, as a clause.
    var clause: String {
        switch self {
        case .noTransportSecurity: "its IMAP server is reached without TLS, and a password only travels to accounts that use TLS or STARTTLS"
        case .signsInWithOAuth: "it signs in with OAuth2, so Thunderbird holds no password for it"
        case .authenticationMethod(let method): "it signs in with a method other than a password (Thunderbird's method \(method))"
        case .fieldNotTransferable(let field): "its \(field) does not fit the transfer's account format"
        }
    }

    /// What the person can do.
    var nextStep: String {
        switch self {
        case .noTransportSecurity: "Switch the account to SSL/TLS or STARTTLS in Thunderbird's server settings, then try again."
        case .signsInWithOAuth: "Sign in to the account on the other device instead."
        case .authenticationMethod: "Set the account's authentication method to a normal password in Thunderbird, then try again."
        case .fieldNotTransferable: "Set up the account on the other device by hand."
        }
    }
}
