import AccountHandoff
import CSQLite

/// One SQLite connection. Not thread-safe by itself: the store serialises every use. Opening,
/// executing and stepping read and write the database file (and wait up to the busy timeout
/// for another process's transaction), so they run through ``BlockingCall``.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    private init(handle: OpaquePointer) { self.handle = handle }

    deinit { sqlite3_close_v2(handle) }

    /// Opens an existing database file read-write (or only for reading), refusing a symbolic link.
    static func open(path: String, busyTimeoutMilliseconds: Int32, readOnly: Bool = false) throws(SQLiteError) -> SQLiteDatabase {
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX
        let status = BlockingCall.run("sqlite3_open_v2") { sqlite3_open_v2(path, &handle, flags, nil) }
        guard status == SQLITE_OK, let handle else {
            let code = handle.map { sqlite3_extended_errcode($0) } ?? status
            if let handle { sqlite3_close_v2(handle) }
            throw SQLiteError(operation: "sqlite3_open_v2", code: code)
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        return SQLiteDatabase(handle: handle)
    }

    /// Asks for the write-ahead log and returns the journal mode now in force. When two
    /// processes open a new store at once, both may ask while each holds a shared lock; SQLite
    /// then refuses one at once with `SQLITE_BUSY` instead of waiting (waiting would deadlock),
    /// so that one asks again once the other is done: at most 100 times, 10 ms apart.
    func switchingToWAL() throws(SQLiteError) -> String? {
        var refusals = 0
        while true {
            do throws(SQLiteError) {
                return try text("PRAGMA journal_mode = WAL")
            } catch let error where error.code & 0xFF == SQLITE_BUSY && refusals < 100 {
                refusals += 1
                _ = BlockingCall.run("sqlite3_sleep") { sqlite3_sleep(10) }
            }
        }
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let status = BlockingCall.run("sqlite3_exec") { sqlite3_exec(handle, sql, nil, nil, nil) }
        guard status == SQLITE_OK else { throw SQLiteError(operation: Self.operation(sql), code: sqlite3_extended_errcode(handle)) }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = BlockingCall.run("sqlite3_prepare_v2") { sqlite3_prepare_v2(handle, sql, -1, &statement, nil) }
        guard status == SQLITE_OK, let statement else {
            throw SQLiteError(operation: Self.operation(sql), code: sqlite3_extended_errcode(handle))
        }
        return SQLiteStatement(handle: statement, database: handle, operation: Self.operation(sql))
    }

    /// The first text column of the first row of `sql`.
    func text(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether the main database is open read-only.
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// The statement's first word and table, for error reports (never bound values).
    private static func operation(_ sql: String) -> String {
        String(sql.split(whereSeparator: \.isNewline).first?.prefix(48) ?? "")
    }
}

/// One compiled statement; finalized when released.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: OpaquePointer
    private let operation: String

    init(handle: OpaquePointer, database: OpaquePointer, operation: String) {
        self.handle = handle
        self.database = database
        self.operation = operation
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ text: String) throws(SQLiteError) {
        try check(sqlite3_bind_text(handle, index, text, -1, accounthandoff_sqlite_transient()))
    }

    func bind(_ index: Int32, blob: [UInt8]) throws(SQLiteError) {
        let status = blob.withUnsafeBytes { bytes in
            sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), accounthandoff_sqlite_transient())
        }
        try check(status)
    }

    func bind(_ index: Int32, _ value: Int64) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Advances; `true` when a row is available, `false` when done.
    func step() throws(SQLiteError) -> Bool {
        switch BlockingCall.run("sqlite3_step", { sqlite3_step(handle) }) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(operation: operation, code: sqlite3_extended_errcode(database))
        }
    }

    /// Whether the column is NULL.
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// A text column decoded as strict UTF-8; `nil` for NULL or invalid UTF-8.
    func text(_ column: Int32) -> String? {
        guard !isNull(column), let pointer = sqlite3_column_text(handle, column) else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column))))
        let text = String(decoding: bytes, as: UTF8.self)
        return Array(text.utf8) == bytes ? text : nil
    }

    /// A blob column (empty for NULL).
    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The column's SQLite storage class (`SQLITE_INTEGER`, `SQLITE_BLOB`, ...).
    func type(_ column: Int32) -> Int32 { sqlite3_column_type(handle, column) }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    private func check(_ status: Int32) throws(SQLiteError) {
        guard status == SQLITE_OK else { throw SQLiteError(operation: operation, code: status) }
    }
}
