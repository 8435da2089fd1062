#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoffImport

/// `import.lock`: imports hold a shared `flock`, recovery an exclusive one. The kernel drops a
/// crashed process's locks, so a lease never outlives its process.
///
/// A lease ends with an explicit `LOCK_UN` before the close: a child process that another
/// thread is starting holds a copy of every descriptor until its `exec` (`O_CLOEXEC` acts only
/// then), and that copy alone would keep a lock that is merely closed.
struct LockFile {
    static let name = "import.lock"
    let directory: CheckedDirectory

    /// A shared lease; waits while a recovery holds the exclusive lock.
    func shared() throws(AccountStoreError) -> ImportLease {
        let descriptor = try openLockFile()
        guard POSIX.retrying({ flock(descriptor, LOCK_SH) }) == 0 else {
            let failure = POSIX.failure("flock(\(Self.name), LOCK_SH)")
            close(descriptor)
            throw .failed(failure)
        }
        return ImportLease { Self.unlockAndClose(descriptor) }
    }

    /// An exclusive lease, or `nil` at once when any lease is held.
    func exclusiveIfFree() throws(AccountStoreError) -> ImportLease? {
        let descriptor = try openLockFile()
        guard POSIX.retrying({ flock(descriptor, LOCK_EX | LOCK_NB) }) == 0 else {
            let busy = errno == EWOULDBLOCK
            let failure = POSIX.failure("flock(\(Self.name), LOCK_EX)")
            close(descriptor)
            if busy { return nil }
            throw .failed(failure)
        }
        return ImportLease { Self.unlockAndClose(descriptor) }
    }

    private static func unlockAndClose(_ descriptor: Int32) {
        _ = POSIX.retrying { flock(descriptor, LOCK_UN) }
        close(descriptor)
    }

    private func openLockFile() throws(AccountStoreError) -> Int32 {
        // Each lease opens its own descriptor: flock locks belong to the open file
        // description, so two leases in one process exclude each other like two processes.
        let descriptor = POSIX.retrying { openat(directory.descriptor, Self.name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .unsafeLocation(.symbolicLink(path: directory.path + "/" + Self.name)) }
            throw .failed(POSIX.failure("openat(\(Self.name))"))
        }
        let info: stat
        do { info = try POSIX.status(of: descriptor, Self.name) } catch {
            close(descriptor)
            throw .failed(error)
        }
        guard info.isRegularFile else {
            close(descriptor)
            throw .unsafeLocation(.notARegularFile(path: directory.path + "/" + Self.name))
        }
        return descriptor
    }
}
