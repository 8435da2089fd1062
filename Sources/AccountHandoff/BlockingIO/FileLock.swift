#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An advisory `flock` on a lock file: the package's one file lock (the registries' lock,
/// the reference store's import lock). Every ``open(_:in:)`` opens its own descriptor, and
/// `flock` locks belong to the open file description, so two locks in one process exclude
/// each other as two processes do. The kernel drops the locks of a process that dies.
///
/// A lock ends with ``unlockAndClose()``: an explicit `LOCK_UN`, then the close. A child process
/// that another thread is starting holds a copy of every descriptor until its `exec`
/// (`O_CLOEXEC` acts only then), and that copy alone would keep a lock that is merely closed.
///
/// Every call that can wait runs through ``BlockingCall``: run them on a ``BlockingIOPool``.
package final class FileLock: @unchecked Sendable {
    // Safety of @unchecked Sendable: `isOpen` is only touched under `openLock`; the
    // descriptor is immutable, and `flock` may be called on it from any thread.
    /// How the file is locked.
    package enum Mode: Sendable {
        /// Several holders at once (`LOCK_SH`); excludes an exclusive holder.
        case shared
        /// One holder (`LOCK_EX`); excludes every other holder.
        case exclusive

        var operation: Int32 {
            switch self {
            case .shared: LOCK_SH
            case .exclusive: LOCK_EX
            }
        }
    }

    /// Why a lock file cannot be used.
    package enum Failure: Error, Hashable, Sendable {
        /// The lock file's name is a symbolic link (it is never followed).
        case symbolicLink
        /// The lock file exists and is not a regular file (a folder, a FIFO, a device).
        case notARegularFile
        /// `open`, `fstat` or `flock` failed with `errno`.
        case system(Call, errno: Int32)
    }

    /// The system call that failed.
    package enum Call: Hashable, Sendable {
        case open, fstat, flock
    }

    /// How a ``lock(_:waitingAtMost:)`` wait ended.
    package enum Wait: Hashable, Sendable {
        /// The lock is held.
        case locked
        /// Another holder kept it for the whole wait.
        case timedOut
        /// The pool work that waited was cancelled first.
        case cancelled
    }

    /// The lock file's descriptor.
    package let descriptor: Int32
    private let openLock = NSLock()
    private var isOpen = true
    private var tries = 0

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { unlockAndClose() }

    /// Opens the lock file `name` relative to `folder` (a folder's descriptor, or `AT_FDCWD`
    /// for a path), creating it with mode 0600; never through a symbolic link, and without
    /// waiting for a writer when a FIFO stands there (it is refused).
    ///
    /// - Throws: ``Failure/symbolicLink``, ``Failure/notARegularFile``, or the failing call.
    package static func open(_ name: String, in folder: Int32 = AT_FDCWD) throws(Failure) -> FileLock {
        let descriptor = BlockingCall.retryingInterrupted("openat") {
            openat(folder, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .symbolicLink }
            throw .system(.open, errno: errno)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = errno
            close(descriptor)
            throw .system(.fstat, errno: failure)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .notARegularFile
        }
        return FileLock(descriptor: descriptor)
    }

    /// Takes the lock, waiting for as long as another holder keeps it.
    ///
    /// - Throws: ``Failure/system(_:errno:)`` for `flock`.
    package func lock(_ mode: Mode) throws(Failure) {
        guard BlockingCall.retryingInterrupted("flock", { flock(descriptor, mode.operation) }) == 0 else {
            throw .system(.flock, errno: errno)
        }
    }

    /// Takes the lock if no other holder excludes it now.
    ///
    /// - Returns: whether the lock is held.
    /// - Throws: ``Failure/system(_:errno:)`` for `flock` failing otherwise than busy.
    package func tryLock(_ mode: Mode) throws(Failure) -> Bool {
        openLock.withLock { tries += 1 }
        guard BlockingCall.retryingInterrupted("flock", { flock(descriptor, mode.operation | LOCK_NB) }) == 0 else {
            if errno == EWOULDBLOCK { return false }
            throw .system(.flock, errno: errno)
        }
        return true
    }

    /// Takes the lock, waiting at most `timeout` while another holder keeps it. The wait
    /// sleeps until the lock file is closed or unlocked somewhere (inotify on Linux, kqueue
    /// elsewhere) and then tries again: it never polls. It ends early, as
    /// ``Wait/cancelled``, when the pool work it runs in is cancelled.
    ///
    /// - Throws: ``Failure/system(_:errno:)`` for `flock`, or for the watch on the file.
    package func lock(_ mode: Mode, waitingAtMost timeout: Duration) throws(Failure) -> Wait {
        if try tryLock(mode) { return .locked }
        let deadline = ContinuousClock.now + timeout
        let watch = try LockReleaseWatch(watching: descriptor)
        let cancellation = BlockingIOCancellation.current
        let wakeOnCancel = cancellation?.whenCancelled { watch.wake() }
        defer {
            if let cancellation, let wakeOnCancel { cancellation.forgetHandler(wakeOnCancel) }
            watch.close()
        }
        while true {
            // The watch exists before this try, so a release after it is never missed.
            if try tryLock(mode) { return .locked }
            if cancellation?.isCancelled == true { return .cancelled }
            guard ContinuousClock.now < deadline else { return .timedOut }
            try watch.wait(until: deadline)
        }
    }

    /// How many times this lock was tried so far, ``lock(_:waitingAtMost:)``'s tries included
    /// (test hook: a wait tries again only when woken).
    package var triesSoFar: Int { openLock.withLock { tries } }

    /// Releases the lock (`LOCK_UN`) and closes the descriptor. Never blocks. Idempotent.
    package func unlockAndClose() {
        let wasOpen = openLock.withLock {
            defer { isOpen = false }
            return isOpen
        }
        guard wasOpen else { return }
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
