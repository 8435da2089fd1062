import AccountHandoffImport
import CSQLite

/// A failed SQLite call: the operation and SQLite's extended result code.
struct SQLiteError: Error {
    let operation: String
    let code: Int32

    /// Whether a UNIQUE constraint refused the write.
    var isUniqueViolation: Bool { code == Self.constraintUnique }

    /// `SQLITE_CONSTRAINT_UNIQUE`, a macro Swift does not import.
    static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)

    /// The store error this failure means for the app.
    var accountStoreError: AccountStoreError {
        switch code & 0xff {
        case SQLITE_CORRUPT, SQLITE_NOTADB: .corrupt(String(cString: sqlite3_errstr(code)))
        case SQLITE_READONLY: .readOnly
        default: .failed(storeFailure)
        }
    }

    /// The failure as a backend failure.
    var storeFailure: StoreFailure { StoreFailure(operation: operation, domain: .sqlite, code: code) }
}
