#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoffImport
import Foundation

/// `import.lock`: imports hold a shared `flock`, recovery an exclusive one. The kernel drops a
/// crashed process's locks, so a lease never outlives its process.
///
/// A lease ends with an explicit `LOCK_UN` before the close: a child process that another
/// thread is starting holds a copy of every descriptor until its `exec` (`O_CLOEXEC` acts only
/// then), and that copy alone would keep a lock that is merely closed.
struct LockFile {
    static let name = "import.lock"
    let directory: CheckedDirectory

    /// A shared lease; waits at most `timeout` while another process holds the exclusive lock
    /// (a recovery, or a stuck process), then gives up. The wait polls every 20 ms: `flock`
    /// itself has no timeout, and a blocked `flock` could not be given up.
    func shared(timeout: Duration) throws(AccountStoreError) -> ImportLease {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let lease = try sharedIfFree() { return lease }
            guard ContinuousClock.now < deadline else {
                throw .lockedByAnotherProcess(waitedSeconds: Int(timeout.components.seconds))
            }
            usleep(20_000)
        }
    }

    /// A shared lease, or `nil` at once while another process holds the exclusive lock.
    func sharedIfFree() throws(AccountStoreError) -> ImportLease? {
        let descriptor = try openLockFile()
        guard POSIX.retrying({ flock(descriptor, LOCK_SH | LOCK_NB) }) == 0 else {
            let busy = errno == EWOULDBLOCK
            let failure = POSIX.failure("flock(\(Self.name), LOCK_SH)")
            close(descriptor)
            if busy { return nil }
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
