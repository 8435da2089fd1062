import AccountHandoff
import AccountHandoffImport

/// `import.lock`: imports hold a shared lock, recovery an exclusive one, through the
/// package's one file lock (``AccountHandoff/FileLock``: its own descriptor per lease,
/// `LOCK_UN` before the close). The kernel drops a crashed process's locks, so a lease never
/// outlives its process. Every method blocks: the import runs them on the
/// ``AccountHandoff/BlockingIOPool``.
struct LockFile {
    static let name = "import.lock"
    let directory: CheckedDirectory

    /// A shared lease; waits at most `timeout` while another process holds the exclusive lock
    /// (a recovery, or a stuck process), then gives up. The wait sleeps until the lock file is
    /// released somewhere and tries again; it never polls, and it ends early when the pool
    /// work it runs in is cancelled.
    func shared(timeout: Duration) throws(AccountStoreError) -> ImportLease {
        let lock = try openLockFile()
        let wait: FileLock.Wait
        do { wait = try lock.lock(.shared, waitingAtMost: timeout) } catch { throw failure(error, "LOCK_SH") }
        switch wait {
        case .locked: return ImportLease { lock.unlockAndClose() }
        case .timedOut, .cancelled:
            lock.unlockAndClose()
            throw .lockedByAnotherProcess(waitedSeconds: Int(timeout.components.seconds))
        }
    }

    /// A shared lease, or `nil` at once while another process holds the exclusive lock.
    func sharedIfFree() throws(AccountStoreError) -> ImportLease? {
        try leaseIfFree(.shared, "LOCK_SH")
    }

    /// An exclusive lease, or `nil` at once when any lease is held.
    func exclusiveIfFree() throws(AccountStoreError) -> ImportLease? {
        try leaseIfFree(.exclusive, "LOCK_EX")
    }

    private func leaseIfFree(_ mode: FileLock.Mode, _ operation: String) throws(AccountStoreError) -> ImportLease? {
        let lock = try openLockFile()
        let locked: Bool
        do { locked = try lock.tryLock(mode) } catch {
            lock.unlockAndClose()
            throw failure(error, operation)
        }
        guard locked else {
            lock.unlockAndClose()
            return nil
        }
        return ImportLease { lock.unlockAndClose() }
    }

    private func openLockFile() throws(AccountStoreError) -> FileLock {
        do { return try FileLock.open(Self.name, in: directory.descriptor) } catch {
            switch error {
            case .symbolicLink: throw .unsafeLocation(.symbolicLink(path: directory.path + "/" + Self.name))
            case .notARegularFile: throw .unsafeLocation(.notARegularFile(path: directory.path + "/" + Self.name))
            case .system(.fstat, let code): throw .failed(StoreFailure(operation: "fstat(\(Self.name))", domain: .posix, code: code))
            case .system(.open, let code), .system(.flock, let code):
                throw .failed(StoreFailure(operation: "openat(\(Self.name))", domain: .posix, code: code))
            }
        }
    }

    /// A failed `flock` (or the wait's watch) as the store reports it.
    private func failure(_ error: FileLock.Failure, _ operation: String) -> AccountStoreError {
        switch error {
        case .symbolicLink, .notARegularFile: .unsafeLocation(.notARegularFile(path: directory.path + "/" + Self.name))
        case .system(_, let code): .failed(StoreFailure(operation: "flock(\(Self.name), \(operation))", domain: .posix, code: code))
        }
    }
}
