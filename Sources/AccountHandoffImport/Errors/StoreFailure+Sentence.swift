import AccountHandoff
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StoreFailure: TranslatedSentence {
    /// Whole sentences: which operation failed, why in words (the backend's name for the code
    /// in parentheses, for support), and what to do next. Never account data or a secret.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        sentenceCatalog.sentence("storeFailure.failed", .text(operation.words(in: language)), .text(cause(in: language)),
                                 .text(nextStep(in: language)), in: language)
    }

    /// Why, as a lowercase clause: `permission denied (EACCES)`, `the database file is locked
    /// (SQLITE_BUSY)`.
    func cause(in language: HandoffLanguage) -> String {
        switch domain {
        case .posix: SystemErrorWords.cause(code, in: language)
        case .sqlite: SQLiteResultWords.cause(code, in: language)
        case .keychain:
            sentenceCatalog.sentence("storeFailure.keychainCause", .text(KeychainStatusName.meaning(code, in: language)),
                                     .text(KeychainStatusName.describe(code)), in: language)
        case .secretService: sentenceCatalog.sentence("storeFailure.secretServiceCause", .number(code), in: language)
        }
    }

    /// What the person can do, as a sentence.
    func nextStep(in language: HandoffLanguage) -> String {
        switch (domain, domain == .sqlite ? code & 0xff : code) {
        case (.posix, EACCES), (.posix, EPERM), (.sqlite, SQLiteResultWords.permissionDenied), (.sqlite, SQLiteResultWords.readOnly):
            sentenceCatalog.sentence("storeFailure.next.permissions", in: language)
        case (.posix, ENOSPC), (.posix, EDQUOT), (.sqlite, SQLiteResultWords.full):
            sentenceCatalog.sentence("storeFailure.next.space", in: language)
        case (.posix, EROFS):
            sentenceCatalog.sentence("storeFailure.next.readOnly", in: language)
        case (.posix, ENOENT), (.sqlite, SQLiteResultWords.cannotOpen):
            sentenceCatalog.sentence("storeFailure.next.missing", in: language)
        case (.posix, ENOMEM), (.posix, EAGAIN), (.sqlite, SQLiteResultWords.outOfMemory):
            sentenceCatalog.sentence("storeFailure.next.memory", in: language)
        case (.sqlite, SQLiteResultWords.busy), (.sqlite, SQLiteResultWords.locked):
            sentenceCatalog.sentence("storeFailure.next.busy", in: language)
        case (.sqlite, SQLiteResultWords.corrupt), (.sqlite, SQLiteResultWords.notADatabase):
            sentenceCatalog.sentence("storeFailure.next.corrupt", in: language)
        case (.keychain, _):
            sentenceCatalog.sentence("storeFailure.next.keychain", in: language)
        case (.secretService, _):
            sentenceCatalog.sentence("storeFailure.next.secretService", in: language)
        default:
            sentenceCatalog.sentence("storeFailure.next.other", in: language)
        }
    }
}

extension StoreFailure.Operation {
    /// The operation as the sentences name it: a call as it is named in code, anything else
    /// in words.
    func words(in language: HandoffLanguage) -> String {
        switch self {
        case .call(let name): name
        case .readingCredentialOfChangingAccount: sentenceCatalog.sentence("storeOperation.readingCredentialOfChangingAccount", in: language)
        case .readingKeyringReply(let method): sentenceCatalog.sentence("storeOperation.readingKeyringReply", .text(method), in: language)
        }
    }
}

/// SQLite's result codes in words, without linking SQLite here (the reference store does).
/// The words follow `sqlite3_errstr`; extended codes are named by their primary code.
enum SQLiteResultWords {
    static let permissionDenied: Int32 = 3
    static let busy: Int32 = 5
    static let locked: Int32 = 6
    static let outOfMemory: Int32 = 7
    static let readOnly: Int32 = 8
    static let corrupt: Int32 = 11
    static let full: Int32 = 13
    static let cannotOpen: Int32 = 14
    static let notADatabase: Int32 = 26

    /// `code` (primary or extended) as a lowercase clause with the primary code's C name.
    static func cause(_ code: Int32, in language: HandoffLanguage) -> String {
        let primary = code & 0xff
        guard let key = knownKey(primary) else { return sentenceCatalog.sentence("sqlite.unnamed", .number(code), in: language) }
        return sentenceCatalog.sentence("sqlite.cause", .text(sentenceCatalog.sentence(key, in: language)),
                                        .text(String(key.dropFirst("sqlite.".count))), in: language)
    }

    /// The catalog keys of the primary codes: `sqlite.` and the C name.
    private static func knownKey(_ primary: Int32) -> String? {
        switch primary {
        case 1: "sqlite.SQLITE_ERROR"
        case 2: "sqlite.SQLITE_INTERNAL"
        case permissionDenied: "sqlite.SQLITE_PERM"
        case 4: "sqlite.SQLITE_ABORT"
        case busy: "sqlite.SQLITE_BUSY"
        case locked: "sqlite.SQLITE_LOCKED"
        case outOfMemory: "sqlite.SQLITE_NOMEM"
        case readOnly: "sqlite.SQLITE_READONLY"
        case 9: "sqlite.SQLITE_INTERRUPT"
        case 10: "sqlite.SQLITE_IOERR"
        case corrupt: "sqlite.SQLITE_CORRUPT"
        case full: "sqlite.SQLITE_FULL"
        case cannotOpen: "sqlite.SQLITE_CANTOPEN"
        case 15: "sqlite.SQLITE_PROTOCOL"
        case 17: "sqlite.SQLITE_SCHEMA"
        case 18: "sqlite.SQLITE_TOOBIG"
        case 19: "sqlite.SQLITE_CONSTRAINT"
        case 20: "sqlite.SQLITE_MISMATCH"
        case 21: "sqlite.SQLITE_MISUSE"
        case 22: "sqlite.SQLITE_NOLFS"
        case 23: "sqlite.SQLITE_AUTH"
        case 25: "sqlite.SQLITE_RANGE"
        case notADatabase: "sqlite.SQLITE_NOTADB"
        default: nil
        }
    }
}
