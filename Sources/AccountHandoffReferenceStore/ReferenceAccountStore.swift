#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffImport
import Foundation

/// The reference account store for Linux, used by the `handoff` CLI and the tests: account
/// metadata in SQLite and credentials as 0600 files, a stand-in for the Keychain.
///
/// Layout of the store directory (mode 0700, owned by the current user):
/// - `accounts.sqlite` (WAL mode, `synchronous=FULL`): the `accounts` table; no secret column.
/// - `credentials/` (mode 0700): `account-<local ID>.credential` and `staged-<uuid>.credential`.
/// - `import.lock`: the `flock` behind import and recovery leases.
///
/// Every write is one transaction; every credential file is created 0600 with `O_EXCL |
/// O_NOFOLLOW`, synced with its directory, and replaced only by `rename`. Symbolic links and
/// non-regular files at any of these paths are refused. After
/// ``ImportCoordinator/recover()`` every credential file belongs to a stored account.
///
/// It conforms to both ``AccountMetadataStore`` and ``CredentialStore``; pass it as both.
/// Every method reads or writes files and the database, and so blocks: call them on the
/// ``AccountHandoff/BlockingIOPool`` (``ImportCoordinator`` and the receiver session do).
public final class ReferenceAccountStore: @unchecked Sendable {
    // Safety of @unchecked Sendable: the database connection is only used under `lock`;
    // every other property is immutable, and file operations act on descriptors.

    /// Name of the SQLite database file.
    public static let databaseName = "accounts.sqlite"
    /// Name of the credentials directory.
    public static let credentialsDirectoryName = "credentials"

    /// The store directory.
    public let directory: URL
    /// What opening the store fixed (for example permissions it tightened).
    public let warnings: [ReferenceStoreWarning]

    let root: CheckedDirectory
    let files: CredentialFiles
    let lockFile: LockFile
    let hook: ReferenceStoreStepHook?
    let importLockTimeout: Duration
    /// Whether the store was opened with ``openForReading(at:)``: every write fails.
    public let isOpenForReadingOnly: Bool
    private let database: SQLiteDatabase
    private let lock = NSLock()

    private init(directory: URL, warnings: [ReferenceStoreWarning], root: CheckedDirectory, files: CredentialFiles,
                 database: SQLiteDatabase, hook: ReferenceStoreStepHook?, importLockTimeout: Duration, readOnly: Bool) {
        self.directory = directory
        self.warnings = warnings
        self.root = root
        self.files = files
        self.lockFile = LockFile(directory: root)
        self.database = database
        self.hook = hook
        self.importLockTimeout = importLockTimeout
        self.isOpenForReadingOnly = readOnly
    }

    /// Opens the store in `directory`, creating it (mode 0700) and its database if missing.
    ///
    /// - Throws: ``AccountStoreError/unsafeLocation(_:)`` when the directory or a path inside
    ///   is a symbolic link, the wrong kind of file, another user's, or open to others (unless
    ///   `options` say to tighten it); ``AccountStoreError/corrupt(_:)`` or
    ///   ``AccountStoreError/unsupportedSchema(_:)`` for a database this code cannot use.
    public static func open(at directory: URL, options: ReferenceStoreOptions = ReferenceStoreOptions()) throws(AccountStoreError) -> ReferenceAccountStore {
        try open(at: directory, options: options, stepHook: nil)
    }

    /// ``open(at:options:)`` with a hook called at every ``ReferenceStoreStep`` (tests only).
    package static func open(at directory: URL, options: ReferenceStoreOptions,
                             stepHook: ReferenceStoreStepHook?) throws(AccountStoreError) -> ReferenceAccountStore {
        var warnings: [ReferenceStoreWarning] = []
        let root: CheckedDirectory
        let credentials: CheckedDirectory
        do {
            root = try CheckedDirectory.open(path: directory.path, policy: options.loosePermissions, warnings: &warnings)
            credentials = try root.subdirectory(credentialsDirectoryName, policy: options.loosePermissions, warnings: &warnings)
            for name in [databaseName, databaseName + "-wal", databaseName + "-shm", LockFile.name] {
                try root.requireRegularFileOrNothing(name)
            }
        } catch { throw error.accountStoreError }
        try createDatabaseFileIfMissing(in: root)
        let timeout = options.busyTimeout.components
        let milliseconds = timeout.seconds * 1000 + timeout.attoseconds / 1_000_000_000_000_000
        let database = try sqlite { () throws(SQLiteError) in
            try SQLiteDatabase.open(path: root.path + "/" + databaseName, busyTimeoutMilliseconds: Int32(clamping: milliseconds))
        }
        try configure(database)
        return ReferenceAccountStore(directory: directory, warnings: warnings, root: root,
                                     files: CredentialFiles(directory: credentials, hook: stepHook), database: database, hook: stepHook,
                                     importLockTimeout: options.importLockTimeout, readOnly: false)
    }

    /// Opens an existing store without writing anything (no directory, file or schema is
    /// created, nothing is tightened), for listing a store the person cannot write to.
    /// Recovery and imports fail on such a store; reading accounts, pending activations and
    /// staged credentials works.
    ///
    /// - Throws: ``AccountStoreError/unsafeLocation(_:)`` as ``open(at:options:)`` does (loose
    ///   permissions are refused), ``AccountStoreError/corrupt(_:)`` or
    ///   ``AccountStoreError/unsupportedSchema(_:)`` for a database this code cannot use, and
    ///   ``AccountStoreError/failed(_:)`` when the database or a directory is missing.
    public static func openForReading(at directory: URL) throws(AccountStoreError) -> ReferenceAccountStore {
        var warnings: [ReferenceStoreWarning] = []
        let root: CheckedDirectory
        let credentials: CheckedDirectory
        do {
            root = try CheckedDirectory.open(path: directory.path, policy: .refuse, creating: false, warnings: &warnings)
            credentials = try root.subdirectory(credentialsDirectoryName, policy: .refuse, creating: false, warnings: &warnings)
            for name in [databaseName, databaseName + "-wal", databaseName + "-shm"] {
                try root.requireRegularFileOrNothing(name)
            }
        } catch { throw error.accountStoreError }
        let database = try sqlite { () throws(SQLiteError) in
            try SQLiteDatabase.open(path: root.path + "/" + databaseName, busyTimeoutMilliseconds: 5_000, readOnly: true)
        }
        let version = try schemaVersion(database)
        guard version == AccountsTable.schemaVersion else { throw .unsupportedSchema(version) }
        return ReferenceAccountStore(directory: directory, warnings: [], root: root, files: CredentialFiles(directory: credentials, hook: nil),
                                     database: database, hook: nil, importLockTimeout: .zero, readOnly: true)
    }

    /// Every stored account (for `handoff accounts`); never a secret.
    public func listAccounts() throws(AccountStoreError) -> [StoredAccount] {
        try rows().map(\.account)
    }

    /// The credential of `account`, in guarded memory.
    ///
    /// Reads the committed credential: the pending staged file while an activation is
    /// unfinished, the account's file otherwise. The row is read again afterwards and the
    /// read repeated if the account changed meanwhile, so the result always belongs to the
    /// metadata that was current while it was read.
    ///
    /// - Throws: ``CredentialStoreError/credentialNotFound`` when the account or its file is missing.
    public func credential(for account: LocalAccountID) throws(CredentialStoreError) -> SecretBytes {
        for _ in 0..<3 {
            let before = try row(of: account)
            var secret: SecretBytes?
            if let pending = before.pendingCredential {
                do { secret = try files.read(CredentialFiles.stagedName(pending)) } catch .credentialNotFound {
                    secret = nil  // activated meanwhile: the account's file holds it now
                }
            }
            let value: SecretBytes
            if let secret { value = secret } else { value = try files.read(CredentialFiles.activeName(account)) }
            let after = try row(of: account)
            if after.account.revision == before.account.revision { return value }
            value.wipe()
        }
        throw .failed(StoreFailure(.readingCredentialOfChangingAccount, domain: .posix, code: EAGAIN))
    }

    // MARK: Database access (always under `lock`)

    func withDatabase<T>(_ body: (SQLiteDatabase) throws(AccountStoreError) -> T) throws(AccountStoreError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(database)
    }

    func rows() throws(AccountStoreError) -> [AccountsTable.Row] {
        try withDatabase { (database) throws(AccountStoreError) in try Self.rows(database) }
    }

    static func rows(_ database: SQLiteDatabase) throws(AccountStoreError) -> [AccountsTable.Row] {
        let statement = try sqlite { () throws(SQLiteError) in try database.prepare(AccountsTable.selectAll) }
        var rows: [AccountsTable.Row] = []
        while try sqlite({ () throws(SQLiteError) in try statement.step() }) { rows.append(try AccountsTable.row(statement)) }
        return rows
    }

    private func row(of account: LocalAccountID) throws(CredentialStoreError) -> AccountsTable.Row {
        let all: [AccountsTable.Row]
        do { all = try rows() } catch {
            switch error {
            case .unsafeLocation(let problem): throw .unsafeLocation(problem)
            case .failed(let failure): throw .failed(failure)
            case .readOnly, .corrupt, .unsupportedSchema, .changedMeanwhile, .linkIDAlreadyStored, .accountNotFound, .invalidRecord,
                 .lockedByAnotherProcess:
                throw .accountStore(error)
            }
        }
        guard let row = all.first(where: { $0.account.id == account }) else { throw .credentialNotFound }
        return row
    }

    /// Runs `body` in `BEGIN IMMEDIATE ... COMMIT`, rolling back when it throws; then runs the
    /// hook for `afterCommit`.
    func inWriteTransaction<T>(afterCommit: ReferenceStoreStep?,
                               _ body: (SQLiteDatabase) throws(AccountStoreError) -> T) throws(AccountStoreError) -> T {
        let value = try withDatabase { (database) throws(AccountStoreError) -> T in
            try sqlite { () throws(SQLiteError) in try database.execute("BEGIN IMMEDIATE") }
            let value: T
            do throws(AccountStoreError) { value = try body(database) } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
            do throws(SQLiteError) { try database.execute("COMMIT") } catch {
                try? database.execute("ROLLBACK")
                throw error.accountStoreError
            }
            return value
        }
        if let afterCommit { try reach(afterCommit) }
        return value
    }

    func reach(_ step: ReferenceStoreStep) throws(AccountStoreError) {
        if let failure = hook?(step) { throw .failed(failure) }
    }

    // MARK: Opening

    private static func createDatabaseFileIfMissing(in root: CheckedDirectory) throws(AccountStoreError) {
        // SQLite would create the file with mode 0644; creating it here makes it 0600, and
        // SQLite gives the -wal and -shm files the same mode.
        let descriptor = BlockingCall.retryingInterrupted("openat") { openat(root.descriptor, databaseName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        if descriptor < 0 {
            guard errno == EEXIST else { throw .failed(POSIX.failure("openat(\(databaseName))")) }
            return
        }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw .failed(POSIX.failure("fchmod(\(databaseName))")) }
    }

    private static func configure(_ database: SQLiteDatabase) throws(AccountStoreError) {
        let mode = try sqlite { () throws(SQLiteError) in try database.switchingToWAL() }
        guard mode?.lowercased() == "wal" else {
            throw .failed(StoreFailure(operation: "PRAGMA journal_mode = WAL", domain: .sqlite, code: 1))
        }
        try sqlite { () throws(SQLiteError) in
            try database.execute("PRAGMA synchronous = FULL")
            try database.execute("PRAGMA trusted_schema = OFF")
        }
        let version = try schemaVersion(database)
        if version == 0 {
            try sqlite { () throws(SQLiteError) in try database.execute("BEGIN IMMEDIATE") }
            do {
                // Another process may have created the schema while this one waited for the lock.
                if try schemaVersion(database) == 0 {
                    try sqlite { () throws(SQLiteError) in try database.execute(AccountsTable.create) }
                }
                try sqlite { () throws(SQLiteError) in try database.execute("COMMIT") }
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        } else if version != AccountsTable.schemaVersion {
            throw .unsupportedSchema(version)
        }
    }

    private static func schemaVersion(_ database: SQLiteDatabase) throws(AccountStoreError) -> Int {
        let text = try sqlite { () throws(SQLiteError) in try database.text("PRAGMA user_version") }
        return Int(text ?? "0") ?? 0
    }
}

/// Runs SQLite calls, reporting their failure as the store error it means.
func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(AccountStoreError) -> T {
    do { return try body() } catch { throw error.accountStoreError }
}
