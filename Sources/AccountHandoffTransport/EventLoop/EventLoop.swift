import Foundation

/// Something registered with the loop for a descriptor's readiness.
protocol PollHandler: AnyObject {
    /// Called on the loop thread with what the kernel reported.
    func handle(_ event: PollEvent)
}

/// The transport's one event-loop thread per process: it sleeps in `epoll_wait` (Linux) or
/// `kevent` (Darwin) until a socket is ready, a deadline comes, or another thread hands it work
/// with ``execute(_:)``. Every listener and connection of the process is served here, so a
/// waiting sender costs no CPU at all, and no call ever blocks a Swift concurrency thread.
///
/// One shared thread rather than one per channel: a process has few channels (one listener, or
/// one connection), and their work per event is small (an accept, a read of at most one frame,
/// one HMAC); one thread keeps the descriptor and thread count flat however many channels a
/// test or an app opens. The thread is started on first use and then lives as long as the
/// process, asleep while there is nothing to do.
///
/// Everything but ``execute(_:)`` and ``wakeUp()`` must be called on the loop thread; the
/// channels' state is confined to it, so it needs no locks.
final class EventLoop: @unchecked Sendable {
    // Safety of @unchecked Sendable: `queued` and `wakePending` are only touched under `lock`;
    // `handlers`, `timers` and `nextToken` only on the loop thread.

    private let poller: Poller
    private let lock = NSLock()
    private var queued: [@Sendable () -> Void] = []
    private var wakePending = false
    private var handlers: [UInt64: any PollHandler] = [:]
    private var timers = TimerHeap()
    private var nextToken: UInt64 = 1

    private init(poller: Poller) {
        self.poller = poller
    }

    // MARK: The shared loop

    private static let startLock = NSLock()
    nonisolated(unsafe) private static var started: EventLoop?  // under startLock

    /// The process's loop, started on first use.
    ///
    /// - Throws: ``TransportError/system(operation:errno:)`` when the kernel gives no poller
    ///   (out of descriptors); a later call tries again.
    static func shared() throws(TransportError) -> EventLoop {
        startLock.lock()
        defer { startLock.unlock() }
        if let started { return started }
        let loop = EventLoop(poller: try Poller())
        let thread = Thread { loop.run() }
        thread.name = "handoff.transport"
        thread.start()
        started = loop
        return loop
    }

    // MARK: From any thread

    /// Runs `work` on the loop thread, after the work handed over before it.
    func execute(_ work: @escaping @Sendable () -> Void) {
        let mustWake = lock.withLock { () -> Bool in
            queued.append(work)
            defer { wakePending = true }
            return !wakePending
        }
        if mustWake { poller.wake() }
    }

    // MARK: On the loop thread

    /// Registers `descriptor` for `interest`; events go to `handler` until ``unregister(_:token:)``.
    func register(_ descriptor: Int32, interest: PollInterest, handler: any PollHandler) throws(TransportError) -> UInt64 {
        let token = nextToken
        nextToken += 1
        try poller.add(descriptor, token: token, interest: interest)
        handlers[token] = handler
        return token
    }

    /// Changes what a registered descriptor waits for.
    func setInterest(_ descriptor: Int32, token: UInt64, interest: PollInterest) throws(TransportError) {
        try poller.modify(descriptor, token: token, interest: interest)
    }

    /// Unregisters a descriptor; call it before closing it.
    func unregister(_ descriptor: Int32, token: UInt64) {
        poller.remove(descriptor)
        handlers[token] = nil
    }

    /// Asks for `target.deadlineReached(now:)` at or soon after `instant`.
    func wake(_ target: any DeadlineTarget, at instant: ContinuousClock.Instant) {
        timers.insert(target, at: instant)
    }

    /// The poller's own descriptors, for tests.
    var pollerDescriptors: [Int32] { poller.descriptors }

    private func run() {
        while true {
            let timeout = timers.earliest.map { ContinuousClock.now.duration(to: $0) }
            let events: [PollEvent]
            do { events = try poller.wait(timeout: timeout) } catch {
                // The poller itself failed (it never does but for EINTR, handled inside):
                // rest a moment rather than spin, and go on.
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            for event in events {
                if event.token == Poller.wakeToken {
                    poller.drainWakeUp()
                } else {
                    handlers[event.token]?.handle(event)
                }
            }
            let work = lock.withLock { () -> [@Sendable () -> Void] in
                defer {
                    queued.removeAll(keepingCapacity: true)
                    wakePending = false
                }
                return queued
            }
            for item in work { item() }
            let now = ContinuousClock.now
            for target in timers.popDue(now: now) { target.deadlineReached(now: now) }
        }
    }
}

/// A thread-safe counter, for identifiers.
final class Counter: @unchecked Sendable {
    // Safety of @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: UInt64 = 0

    /// The next value, from 1.
    func next() -> UInt64 {
        lock.withLock {
            value += 1
            return value
        }
    }
}
