#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import CEventPoll
import Glibc
#endif

/// Which readiness a registered descriptor waits for.
struct PollInterest: OptionSet, Hashable, Sendable {
    let rawValue: UInt32
    static let readable = PollInterest(rawValue: 1)
    static let writable = PollInterest(rawValue: 2)
}

/// One readiness report: the token the descriptor was registered with.
struct PollEvent {
    var token: UInt64
    var readable: Bool
    var writable: Bool
    /// An error or hang-up, reported whatever the interest: the next read or write says which.
    var failed: Bool
}

/// The kernel's readiness notification, level-triggered: epoll on Linux, kqueue on Darwin.
/// Token 0 is the loop's own wake-up. Used by the loop thread only, except ``wake()``.
final class Poller: @unchecked Sendable {
    // Safety of @unchecked Sendable: ``wake()`` only writes to a descriptor that lives as long
    // as the poller; everything else runs on the loop thread.

    /// The token of the wake-up.
    static let wakeToken: UInt64 = 0

    #if canImport(Darwin)
    private let queue: Int32
    private var ready = [kevent](repeating: kevent(), count: 128)

    init() throws(TransportError) {
        // A kqueue is never inherited by a child process (kqueue(2)), so it needs no close-on-exec.
        queue = kqueue()
        guard queue >= 0 else { throw .system(operation: "kqueue", errno: errno) }
        var wakeUp = kevent(ident: 0, filter: Int16(EVFILT_USER), flags: UInt16(EV_ADD | EV_CLEAR), fflags: 0, data: 0, udata: nil)
        guard kevent(queue, &wakeUp, 1, nil, 0, nil) == 0 else {
            let code = errno
            Darwin.close(queue)
            throw .system(operation: "kevent", errno: code)
        }
    }

    deinit { Darwin.close(queue) }

    /// Its own descriptors, for tests.
    var descriptors: [Int32] { [queue] }

    /// Registers `descriptor` (a socket not yet registered).
    func add(_ descriptor: Int32, token: UInt64, interest: PollInterest) throws(TransportError) {
        try change(descriptor, token: token, interest: interest)
    }

    /// Changes what `descriptor` waits for.
    func modify(_ descriptor: Int32, token: UInt64, interest: PollInterest) throws(TransportError) {
        try change(descriptor, token: token, interest: interest)
    }

    /// Both filters, added (or updated) and enabled or disabled per `interest`.
    private func change(_ descriptor: Int32, token: UInt64, interest: PollInterest) throws(TransportError) {
        let udata = UnsafeMutableRawPointer(bitPattern: UInt(token))
        let read = UInt16(EV_ADD | (interest.contains(.readable) ? EV_ENABLE : EV_DISABLE))
        let write = UInt16(EV_ADD | (interest.contains(.writable) ? EV_ENABLE : EV_DISABLE))
        var changes = [
            kevent(ident: UInt(descriptor), filter: Int16(EVFILT_READ), flags: read, fflags: 0, data: 0, udata: udata),
            kevent(ident: UInt(descriptor), filter: Int16(EVFILT_WRITE), flags: write, fflags: 0, data: 0, udata: udata),
        ]
        guard kevent(queue, &changes, Int32(changes.count), nil, 0, nil) == 0 else {
            throw .system(operation: "kevent", errno: errno)
        }
    }

    /// Unregisters `descriptor`; call it before closing the descriptor.
    func remove(_ descriptor: Int32) {
        var changes = [
            kevent(ident: UInt(descriptor), filter: Int16(EVFILT_READ), flags: UInt16(EV_DELETE), fflags: 0, data: 0, udata: nil),
            kevent(ident: UInt(descriptor), filter: Int16(EVFILT_WRITE), flags: UInt16(EV_DELETE), fflags: 0, data: 0, udata: nil),
        ]
        // One change per call, so a filter that was never added (ENOENT) does not hide the other.
        for index in changes.indices { _ = kevent(queue, &changes[index], 1, nil, 0, nil) }
    }

    /// Waits until something is ready or `timeout` passes (`nil`: no limit).
    ///
    /// - Throws: only when the kernel refuses to wait at all (not for `EINTR`).
    func wait(timeout: Duration?) throws(TransportError) -> [PollEvent] {
        var limit = timeout.map { Self.timespec(of: $0) }
        let count: Int32 = ready.withUnsafeMutableBufferPointer { buffer in
            if limit != nil {
                return kevent(queue, nil, 0, buffer.baseAddress, Int32(buffer.count), &limit!)
            }
            return kevent(queue, nil, 0, buffer.baseAddress, Int32(buffer.count), nil)
        }
        if count < 0 {
            guard errno == EINTR else { throw .system(operation: "kevent", errno: errno) }
            return []
        }
        return ready.prefix(Int(count)).map { entry in
            let token = UInt64(UInt(bitPattern: entry.udata))
            let failed = entry.flags & UInt16(EV_ERROR) != 0 || entry.flags & UInt16(EV_EOF) != 0
            if entry.filter == Int16(EVFILT_USER) {
                return PollEvent(token: Self.wakeToken, readable: true, writable: false, failed: false)
            }
            return PollEvent(token: token, readable: entry.filter == Int16(EVFILT_READ), writable: entry.filter == Int16(EVFILT_WRITE),
                             failed: failed)
        }
    }

    private static func timespec(of duration: Duration) -> Darwin.timespec {
        let (seconds, attoseconds) = max(duration, .zero).components
        return Darwin.timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    }

    /// Wakes the loop from any thread.
    func wake() {
        var trigger = kevent(ident: 0, filter: Int16(EVFILT_USER), flags: 0, fflags: UInt32(NOTE_TRIGGER), data: 0, udata: nil)
        _ = kevent(queue, &trigger, 1, nil, 0, nil)
    }

    /// Called by the loop when the wake-up fired (EV_CLEAR already reset it).
    func drainWakeUp() {}

    #else
    private let poller: Int32
    private let wakeUp: Int32
    private var ready = [handoff_poll_event](repeating: handoff_poll_event(), count: 128)

    init() throws(TransportError) {
        poller = handoff_poll_create()
        guard poller >= 0 else { throw .system(operation: "epoll_create1", errno: errno) }
        wakeUp = handoff_wakeup_create()
        guard wakeUp >= 0 else {
            let code = errno
            Glibc.close(poller)
            throw .system(operation: "eventfd", errno: code)
        }
        guard handoff_poll_control(poller, 0, wakeUp, PollInterest.readable.rawValue, Self.wakeToken) == 0 else {
            let code = errno
            Glibc.close(wakeUp)
            Glibc.close(poller)
            throw .system(operation: "epoll_ctl", errno: code)
        }
    }

    deinit {
        Glibc.close(wakeUp)
        Glibc.close(poller)
    }

    /// Its own descriptors, for tests.
    var descriptors: [Int32] { [poller, wakeUp] }

    /// Registers `descriptor` (a socket not yet registered).
    func add(_ descriptor: Int32, token: UInt64, interest: PollInterest) throws(TransportError) {
        guard handoff_poll_control(poller, 0, descriptor, interest.rawValue, token) == 0 else {
            throw .system(operation: "epoll_ctl", errno: errno)
        }
    }

    /// Changes what `descriptor` waits for.
    func modify(_ descriptor: Int32, token: UInt64, interest: PollInterest) throws(TransportError) {
        guard handoff_poll_control(poller, 1, descriptor, interest.rawValue, token) == 0 else {
            throw .system(operation: "epoll_ctl", errno: errno)
        }
    }

    /// Unregisters `descriptor`; call it before closing the descriptor. (A descriptor that a
    /// process being started still holds a copy of would otherwise stay in the set, reporting
    /// events under its old token.)
    func remove(_ descriptor: Int32) {
        _ = handoff_poll_control(poller, 2, descriptor, 0, 0)
    }

    /// Waits until something is ready or `timeout` passes (`nil`: no limit).
    ///
    /// - Throws: only when the kernel refuses to wait at all (not for `EINTR`).
    func wait(timeout: Duration?) throws(TransportError) -> [PollEvent] {
        let milliseconds = timeout.map(Self.milliseconds) ?? -1
        let count = ready.withUnsafeMutableBufferPointer { buffer in
            handoff_poll_wait(poller, buffer.baseAddress, Int32(buffer.count), milliseconds)
        }
        if count < 0 {
            guard errno == EINTR else { throw .system(operation: "epoll_wait", errno: errno) }
            return []
        }
        return ready.prefix(Int(count)).map { entry in
            PollEvent(token: entry.token, readable: entry.flags & UInt32(HANDOFF_POLL_READABLE) != 0,
                      writable: entry.flags & UInt32(HANDOFF_POLL_WRITABLE) != 0,
                      failed: entry.flags & UInt32(HANDOFF_POLL_FAILED) != 0)
        }
    }

    /// Whole milliseconds, rounded up so the loop never wakes just before a deadline.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    /// Wakes the loop from any thread.
    func wake() {
        _ = handoff_wakeup_signal(wakeUp)
    }

    /// Called by the loop when the wake-up fired.
    func drainWakeUp() {
        handoff_wakeup_drain(wakeUp)
    }
    #endif
}
