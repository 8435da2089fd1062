import AccountHandoff
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StoreFailure: LocalizedErrorSentence {
    /// Whole sentences: which operation failed, why in words (the backend's name for the code
    /// in parentheses, for support), and what to do next. Never account data or a secret.
    public var description: String { "The store operation \(operation) failed: \(cause). \(nextStep)" }

    /// Why, as a lowercase clause: `permission denied (EACCES)`, `the database file is locked
    /// (SQLITE_BUSY)`.
    var cause: String {
        switch domain {
        case .posix: SystemErrorWords.cause(code)
        case .sqlite: SQLiteResultWords.cause(code)
        case .keychain: "\(KeychainStatusName.meaning(code)) (\(KeychainStatusName.describe(code)))"
        case .secretService: "the keyring service reported a failure (GLib code \(code))"
        }
    }

    /// What the person can do, as a sentence.
    var nextStep: String {
        switch (domain, domain == .sqlite ? code & 0xff : code) {
        case (.posix, EACCES), (.posix, EPERM), (.sqlite, SQLiteResultWords.permissionDenied), (.sqlite, SQLiteResultWords.readOnly):
            "Check the permissions of the store's folder and of the files in it, then try again."
        case (.posix, ENOSPC), (.posix, EDQUOT), (.sqlite, SQLiteResultWords.full):
            "Free some space on the disk, then try again."
        case (.posix, EROFS):
            "Make the file system writable, or choose a store on another one, then try again."
        case (.posix, ENOENT), (.sqlite, SQLiteResultWords.cannotOpen):
            "Check that the store's folder still exists and is yours, then try again."
        case (.posix, ENOMEM), (.posix, EAGAIN), (.sqlite, SQLiteResultWords.outOfMemory):
            "Close other apps or wait a moment, then try again."
        case (.sqlite, SQLiteResultWords.busy), (.sqlite, SQLiteResultWords.locked):
            "Let the other program that uses the store finish, then try again."
        case (.sqlite, SQLiteResultWords.corrupt), (.sqlite, SQLiteResultWords.notADatabase):
            "Restore the store from a backup."
        case (.keychain, _):
            "Check the app's Keychain settings and that the device is unlocked, then try again."
        case (.secretService, _):
            "Check that your keyring (GNOME Keyring, KWallet) is running and unlocked, then try again."
        default:
            "Check the disk and the store's folder, then try again."
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
    static func cause(_ code: Int32) -> String {
        let primary = code & 0xff
        guard let (words, name) = known(primary) else { return "the database reported a failure (SQLite code \(code))" }
        return "\(words) (\(name))"
    }

    private static func known(_ primary: Int32) -> (String, String)? {
        switch primary {
        case 1: ("the database reported an SQL error or a missing database", "SQLITE_ERROR")
        case 2: ("the database library met an internal problem", "SQLITE_INTERNAL")
        case permissionDenied: ("access to the database file was denied", "SQLITE_PERM")
        case 4: ("the database operation was aborted", "SQLITE_ABORT")
        case busy: ("the database file is locked by another connection", "SQLITE_BUSY")
        case locked: ("a table in the database is locked", "SQLITE_LOCKED")
        case outOfMemory: ("the system is out of memory", "SQLITE_NOMEM")
        case readOnly: ("the database is read-only", "SQLITE_READONLY")
        case 9: ("the database operation was interrupted", "SQLITE_INTERRUPT")
        case 10: ("the disk reported an input/output error", "SQLITE_IOERR")
        case corrupt: ("the database file is damaged", "SQLITE_CORRUPT")
        case full: ("the database or the disk is full", "SQLITE_FULL")
        case cannotOpen: ("the database file cannot be opened", "SQLITE_CANTOPEN")
        case 15: ("the database file lock protocol failed", "SQLITE_PROTOCOL")
        case 17: ("the database schema changed", "SQLITE_SCHEMA")
        case 18: ("a value is too big for the database", "SQLITE_TOOBIG")
        case 19: ("a database constraint refused the change", "SQLITE_CONSTRAINT")
        case 20: ("a value has the wrong type for the database", "SQLITE_MISMATCH")
        case 21: ("the database library was used wrongly", "SQLITE_MISUSE")
        case 22: ("the file system does not support large database files", "SQLITE_NOLFS")
        case 23: ("the database refused access", "SQLITE_AUTH")
        case 25: ("a database parameter is out of range", "SQLITE_RANGE")
        case notADatabase: ("the file is not a database", "SQLITE_NOTADB")
        default: nil
        }
    }
}
