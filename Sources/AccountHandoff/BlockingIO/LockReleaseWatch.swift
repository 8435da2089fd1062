#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Sleeps until a lock file may have been released: on Linux an inotify watch for the file
/// being closed (every holder of the package closes its descriptor right after `LOCK_UN`,
/// and the kernel closes a dead process's), elsewhere a kqueue filter for the file being
/// unlocked. A waiter tries the lock again after each wake, so a wake for another reason
/// (another holder's close) costs one try, never a missed release.
final class LockReleaseWatch: @unchecked Sendable {
    // Safety of @unchecked Sendable: `wake()` may come from any thread; it touches the
    // descriptors only under `lock`, and never after `close()`.
    private let lock = NSLock()
    private var isClosed = false
    #if canImport(Glibc)
    /// The inotify instance watching the lock file.
    private let events: Int32
    /// A connected socket pair, close-on-exec from birth: ``wake()`` writes a byte to the
    /// second, the wait watches the first.
    private let waker: (read: Int32, write: Int32)
    #else
    /// The kqueue watching the lock file, with a user event for ``wake()``.
    private let events: Int32
    #endif

    /// Watches the file open at `descriptor`.
    ///
    /// - Throws: ``FileLock/Failure/system(_:errno:)`` (as `.flock`) when the watch cannot be made.
    init(watching descriptor: Int32) throws(FileLock.Failure) {
        #if canImport(Glibc)
        let events = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard events >= 0 else { throw .system(.flock, errno: errno) }
        // The descriptor's /proc link names the very file it has open, even if it was renamed.
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_CLOSE_NOWRITE) | UInt32(IN_DELETE_SELF)
        guard inotify_add_watch(events, "/proc/self/fd/\(descriptor)", mask) >= 0 else {
            let failure = errno
            Glibc.close(events)
            throw .system(.flock, errno: failure)
        }
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else {
            let failure = errno
            Glibc.close(events)
            throw .system(.flock, errno: failure)
        }
        self.events = events
        self.waker = (ends[0], ends[1])
        #else
        let events = kqueue()
        guard events >= 0 else { throw .system(.flock, errno: errno) }
        var changes = [
            kevent(ident: UInt(descriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                   fflags: UInt32(NOTE_FUNLOCK | NOTE_DELETE), data: 0, udata: nil),
            kevent(ident: 1, filter: Int16(EVFILT_USER), flags: UInt16(EV_ADD | EV_CLEAR), fflags: 0, data: 0, udata: nil),
        ]
        guard kevent(events, &changes, Int32(changes.count), nil, 0, nil) == 0 else {
            let failure = errno
            Darwin.close(events)
            throw .system(.flock, errno: failure)
        }
        self.events = events
        #endif
    }

    deinit { close() }

    /// Sleeps until the file may have been released, ``wake()`` is called, or `deadline`.
    ///
    /// - Throws: ``FileLock/Failure/system(_:errno:)`` (as `.flock`) when the wait itself fails.
    func wait(until deadline: ContinuousClock.Instant) throws(FileLock.Failure) {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return }
        #if canImport(Glibc)
        var descriptors = [pollfd(fd: events, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: waker.read, events: Int16(POLLIN), revents: 0)]
        let milliseconds = Int32(clamping: (remaining.components.seconds * 1000) + (remaining.components.attoseconds / 1_000_000_000_000_000) + 1)
        let ready = BlockingCall.retryingInterrupted("poll") { poll(&descriptors, nfds_t(descriptors.count), milliseconds) }
        guard ready >= 0 else { throw .system(.flock, errno: errno) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(events, $0.baseAddress, $0.count) }) > 0 {}
        #else
        var limit = timespec(tv_sec: Int(remaining.components.seconds),
                             tv_nsec: Int(remaining.components.attoseconds / 1_000_000_000))
        var received = kevent()
        let ready = BlockingCall.retryingInterrupted("kevent") { kevent(events, nil, 0, &received, 1, &limit) }
        guard ready >= 0 else { throw .system(.flock, errno: errno) }
        #endif
    }

    /// Ends a ``wait(until:)`` now, or the next one at once. From any thread; does nothing
    /// after ``close()``.
    func wake() {
        lock.withLock {
            guard !isClosed else { return }
            #if canImport(Glibc)
            var byte: UInt8 = 1
            _ = write(waker.write, &byte, 1)
            #else
            var trigger = kevent(ident: 1, filter: Int16(EVFILT_USER), flags: 0, fflags: UInt32(NOTE_TRIGGER), data: 0, udata: nil)
            _ = kevent(events, &trigger, 1, nil, 0, nil)
            #endif
        }
    }

    /// Closes the watch. Idempotent.
    func close() {
        lock.withLock {
            guard !isClosed else { return }
            isClosed = true
            #if canImport(Glibc)
            Glibc.close(events)
            Glibc.close(waker.read)
            Glibc.close(waker.write)
            #else
            Darwin.close(events)
            #endif
        }
    }
}
