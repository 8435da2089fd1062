#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoffReferenceStore
import CSQLite
import Foundation

/// Looks at a reference store's files from outside, as an attacker or an auditor would.
enum StoreFiles {
    static func mode(_ url: URL) -> UInt16? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        return UInt16(info.st_mode & 0o7777)
    }

    static func database(_ store: URL) -> URL { store.appendingPathComponent(ReferenceAccountStore.databaseName) }
    static func credentials(_ store: URL) -> URL { store.appendingPathComponent(ReferenceAccountStore.credentialsDirectoryName) }

    /// The names in the credentials directory.
    static func credentialFileNames(_ store: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: credentials(store).path)) ?? []).sorted()
    }

    /// Every byte of the database and its WAL, to search for secrets.
    static func databaseBytes(_ store: URL) -> [UInt8] {
        ["", "-wal", "-shm"].flatMap { suffix in
            (try? Data(contentsOf: URL(fileURLWithPath: database(store).path + suffix))).map(Array.init) ?? []
        }
    }

    /// Runs SQL on the database directly and returns the first column of each row.
    static func query(_ store: URL, _ sql: String) -> [String] {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(database(store).path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else { return [] }
        defer { sqlite3_close_v2(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return [] }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
        }
        return rows
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs anywhere in the bytes.
    func contains(bytes needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
