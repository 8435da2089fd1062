import AccountHandoff
import AccountHandoffImport

extension ReferenceAccountStore: AccountMetadataStore {
    /// Checks the directory again, runs SQLite's `quick_check`, and takes and releases the
    /// write lock, so a damaged, read-only or locked database is found before the password travels.
    public func checkMetadataWritable() throws(AccountStoreError) {
        do {
            try root.recheck()
            for name in [Self.databaseName, Self.databaseName + "-wal", Self.databaseName + "-shm"] {
                try root.requireRegularFileOrNothing(name)
            }
        } catch { throw error.accountStoreError }
        try withDatabase { (database) throws(AccountStoreError) in
            let check = try sqlite { () throws(SQLiteError) in try database.text("PRAGMA quick_check") }
            guard check == "ok" else { throw .corrupt(check ?? "no result") }
            guard !database.isReadOnly else { throw .readOnly }
            try sqlite { () throws(SQLiteError) in
                try database.execute("BEGIN IMMEDIATE")
                try database.execute("ROLLBACK")
            }
        }
    }

    /// Every stored account, sorted by local ID.
    public func accounts() throws(AccountStoreError) -> [StoredAccount] {
        try listAccounts()
    }

    /// Writes `change` in one `BEGIN IMMEDIATE` transaction, after checking `precondition`
    /// against the rows read inside that transaction.
    public func commit(_ change: AccountChange, if precondition: ([StoredAccount]) -> Bool) throws(AccountStoreError) {
        try inWriteTransaction(afterCommit: .commitCommitted) { (database) throws(AccountStoreError) in
            try reach(.commitTransactionBegun)
            guard precondition(try Self.rows(database).map(\.account)) else { throw .changedMeanwhile }
            let sql: String
            switch change {
            case .add: sql = AccountsTable.insert
            case .replace: sql = AccountsTable.replace
            }
            do throws(SQLiteError) {
                let statement = try database.prepare(sql)
                try AccountsTable.bind(change, to: statement)
                _ = try statement.step()
            } catch {
                throw error.isUniqueViolation ? .linkIDAlreadyStored : error.accountStoreError
            }
            if case .replace(let id, _, _) = change, database.changes != 1 { throw .accountNotFound(id) }
            try reach(.commitRowWritten)
        }
    }

    /// Rows whose `pending_credential` is set.
    public func pendingActivations() throws(AccountStoreError) -> [PendingActivation] {
        try rows().compactMap { row in
            row.pendingCredential.map { PendingActivation(account: row.account.id, credential: $0) }
        }
    }

    /// Clears `pending_credential` if it still names `pending.credential`.
    public func finishActivation(_ pending: PendingActivation) throws(AccountStoreError) {
        try inWriteTransaction(afterCommit: .finishCommitted) { (database) throws(AccountStoreError) in
            try sqlite { () throws(SQLiteError) in
                let statement = try database.prepare(AccountsTable.finishActivation)
                try statement.bind(1, pending.account.rawValue)
                try statement.bind(2, pending.credential.name)
                _ = try statement.step()
            }
        }
    }

    /// A shared `flock` on `import.lock`, waiting at most the options' `importLockTimeout`
    /// while another process holds it exclusively.
    ///
    /// - Throws: ``AccountHandoffImport/AccountStoreError/lockedByAnotherProcess(waitedSeconds:)``
    ///   when the wait ran out.
    public func acquireImportLease() throws(AccountStoreError) -> ImportLease {
        try lockFile.shared(timeout: importLockTimeout)
    }

    /// A shared `flock` on `import.lock`, or `nil` at once while another process holds it
    /// exclusively (a recovery, or a stuck process). Lets a caller show that it waits, and
    /// stop waiting when the person cancels.
    public func acquireImportLeaseIfFree() throws(AccountStoreError) -> ImportLease? {
        try lockFile.sharedIfFree()
    }

    /// An exclusive `flock` on `import.lock`, or `nil` while any import holds its lease.
    public func acquireRecoveryLease() throws(AccountStoreError) -> ImportLease? {
        try lockFile.exclusiveIfFree()
    }
}
