#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff

/// Why a Thunderbird profile could not be found, read or written. Every case is secret-free
/// (no password, no user name) and its ``sentence(in:)`` is whole sentences that say what to do.
/// Whenever an import reports one of these, the profile was left as it was.
public enum ThunderbirdProfileError: Error, Hashable, Sendable {
    /// No `profiles.ini` was found in the folder where Thunderbird keeps its profile list.
    case noProfileList(folder: String)
    /// `profiles.ini` or `installs.ini` could not be understood at `line` (0 for the file as
    /// a whole); `problem` says what is wrong there.
    case profileListInvalid(path: String, line: Int, problem: ThunderbirdDiagnosis)
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
    /// `compatibility.ini` could not be understood; `problem` says what is wrong.
    case compatibilityInvalid(path: String, problem: ThunderbirdDiagnosis)
    /// Thunderbird holds the profile's lock (`processID` when the system names the holder).
    case thunderbirdRunning(path: String, processID: Int32?)
    /// Another import into this profile is running in this program.
    case importAlreadyRunning(path: String)
    /// The profile's folder or one of its files cannot be written.
    case readOnly(path: String)
    /// A file in the profile is a symbolic link or not a regular file; it is left alone.
    case notARegularFile(path: String)
    /// `prefs.js` holds a line this library does not understand (or a duplicate preference);
    /// `problem` says what is wrong at `line`.
    case preferencesInvalid(path: String, line: Int, problem: ThunderbirdDiagnosis)
    /// `logins.json` is not the JSON Thunderbird writes; `problem` says what is wrong.
    case loginsInvalid(path: String, problem: ThunderbirdDiagnosis)
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
    /// for a person to look at; `problem` says what is wrong.
    case journalInvalid(path: String, problem: ThunderbirdDiagnosis)
}

extension ThunderbirdProfileError: TranslatedSentence {
    /// Whole sentences for people: what is wrong and what to do next.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .noProfileList(let folder):
            sentenceCatalog.sentence("profile.noProfileList", .text(folder), in: language)
        case .profileListInvalid(let path, let line, let problem):
            sentenceCatalog.sentence("profile.profileListInvalid", .text(path), .number(line), .text(problem.sentence(in: language)), in: language)
        case .profileNotFound(let name, let available):
            sentenceCatalog.sentence("profile.profileNotFound", .text(name), .text(Self.listing(available, in: language)), in: language)
        case .ambiguousProfile(let available):
            sentenceCatalog.sentence("profile.ambiguousProfile", .text(Self.listing(available, in: language)), in: language)
        case .notAProfileFolder(let path, let code):
            sentenceCatalog.sentence("profile.notAProfileFolder", .text(path), .text(SystemErrorWords.cause(code, in: language)), in: language)
        case .unsupportedProfilePath(let path):
            sentenceCatalog.sentence("profile.unsupportedProfilePath", .text(path), in: language)
        case .newerThunderbird(let path, let version, let newest):
            sentenceCatalog.sentence("profile.newerThunderbird", .text(path), .text(version), .number(newest), in: language)
        case .compatibilityInvalid(let path, let problem):
            sentenceCatalog.sentence("profile.compatibilityInvalid", .text(path), .text(problem.sentence(in: language)), in: language)
        case .thunderbirdRunning(let path, let processID?):
            sentenceCatalog.sentence("profile.thunderbirdRunning.process", .number(processID), .text(path), in: language)
        case .thunderbirdRunning(let path, nil):
            sentenceCatalog.sentence("profile.thunderbirdRunning", .text(path), in: language)
        case .importAlreadyRunning(let path):
            sentenceCatalog.sentence("profile.importAlreadyRunning", .text(path), in: language)
        case .readOnly(let path):
            sentenceCatalog.sentence("profile.readOnly", .text(path), in: language)
        case .notARegularFile(let path):
            sentenceCatalog.sentence("profile.notARegularFile", .text(path), in: language)
        case .preferencesInvalid(let path, let line, let problem):
            sentenceCatalog.sentence("profile.preferencesInvalid", .text(path), .number(line), .text(problem.sentence(in: language)), in: language)
        case .loginsInvalid(let path, let problem):
            sentenceCatalog.sentence("profile.loginsInvalid", .text(path), .text(problem.sentence(in: language)), in: language)
        case .loginsFromAnotherKeyDatabase(let path):
            sentenceCatalog.sentence("profile.loginsFromAnotherKeyDatabase", .text(path), in: language)
        case .keyDatabaseMissing(let path, true):
            sentenceCatalog.sentence("profile.keyDatabaseMissing.legacy", .text(path), in: language)
        case .keyDatabaseMissing(let path, false):
            sentenceCatalog.sentence("profile.keyDatabaseMissing", .text(path), in: language)
        case .keyDatabaseUnusable(let path, let code):
            sentenceCatalog.sentence("profile.keyDatabaseUnusable", .text(path), .text(NSSErrorWords.cause(code, in: language)), in: language)
        case .primaryPasswordRequired(let path):
            sentenceCatalog.sentence("profile.primaryPasswordRequired", .text(path), in: language)
        case .primaryPasswordWrong(let path):
            sentenceCatalog.sentence("profile.primaryPasswordWrong", .text(path), in: language)
        case .noIMAPAccount(let path):
            sentenceCatalog.sentence("profile.noIMAPAccount", .text(path), in: language)
        case .accountNotFound(let address, let available):
            sentenceCatalog.sentence("profile.accountNotFound", .text(address), .text(available.joined(separator: ", ")), in: language)
        case .ambiguousAccount(let available):
            sentenceCatalog.sentence("profile.ambiguousAccount", .text(available.joined(separator: ", ")), in: language)
        case .unsupportedAccount(let address, let reason):
            sentenceCatalog.sentence("profile.unsupportedAccount", .text(address), .text(reason.clause(in: language)),
                                     .text(reason.nextStep(in: language)), in: language)
        case .noSavedPassword(let address, let server):
            sentenceCatalog.sentence("profile.noSavedPassword", .text(address), .text(server), in: language)
        case .serverAlreadyConfigured(let address, let server):
            sentenceCatalog.sentence("profile.serverAlreadyConfigured", .text(address), .text(server), in: language)
        case .fileOperationFailed(let path, let operation, let code):
            sentenceCatalog.sentence("profile.fileOperationFailed", .text(path), .text(Self.operationWords(operation, in: language)),
                                     .text(SystemErrorWords.cause(code, in: language)), .text(Self.nextStep(for: code, in: language)), in: language)
        case .journalInvalid(let path, let problem):
            sentenceCatalog.sentence("profile.journalInvalid", .text(path), .text(problem.sentence(in: language)), in: language)
        }
    }

    private static func listing(_ profiles: [ThunderbirdProfileSummary], in language: HandoffLanguage) -> String {
        guard !profiles.isEmpty else { return sentenceCatalog.sentence("profile.listing.none", in: language) }
        let names = profiles.map { "\($0.name) (\($0.path))" }.joined(separator: ", ")
        return sentenceCatalog.sentence("profile.listing.some", .text(names), in: language)
    }

    /// The past participle of a file operation (`written`), in `language`; an operation this
    /// module does not name is shown as it was given.
    private static func operationWords(_ operation: String, in language: HandoffLanguage) -> String {
        ProfileFileOperation(rawValue: operation)?.words(in: language) ?? operation
    }

    private static func nextStep(for code: Int32, in language: HandoffLanguage) -> String {
        switch code {
        case ENOSPC, EDQUOT: sentenceCatalog.sentence("profile.nextStep.noSpace", in: language)
        case EROFS, EACCES, EPERM: sentenceCatalog.sentence("profile.nextStep.notWritable", in: language)
        default: sentenceCatalog.sentence("profile.nextStep.other", in: language)
        }
    }
}

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
    func clause(in language: HandoffLanguage) -> String {
        switch self {
        case .noTransportSecurity: sentenceCatalog.sentence("unsupported.noTransportSecurity", in: language)
        case .signsInWithOAuth: sentenceCatalog.sentence("unsupported.signsInWithOAuth", in: language)
        case .authenticationMethod(let method): sentenceCatalog.sentence("unsupported.authenticationMethod", .number(method), in: language)
        case .fieldNotTransferable(let field):
            sentenceCatalog.sentence("unsupported.fieldNotTransferable", .text(Self.fieldWords(field, in: language)), in: language)
        }
    }

    /// The name of a field this module reports (`server name`), in `language`; a name the
    /// catalog does not know is shown as it was given.
    private static func fieldWords(_ field: String, in language: HandoffLanguage) -> String {
        let key: String? = switch field {
        case "display name": "field.displayName"
        case "e-mail address": "field.emailAddress"
        case "user name": "field.username"
        case "server name": "field.serverName"
        case "port": "field.port"
        case "settings": "field.settings"
        default: nil
        }
        guard let key else { return field }
        return sentenceCatalog.sentence(key, in: language)
    }

    /// What the person can do.
    func nextStep(in language: HandoffLanguage) -> String {
        switch self {
        case .noTransportSecurity: sentenceCatalog.sentence("unsupported.next.noTransportSecurity", in: language)
        case .signsInWithOAuth: sentenceCatalog.sentence("unsupported.next.signsInWithOAuth", in: language)
        case .authenticationMethod: sentenceCatalog.sentence("unsupported.next.authenticationMethod", in: language)
        case .fieldNotTransferable: sentenceCatalog.sentence("unsupported.next.fieldNotTransferable", in: language)
        }
    }
}
