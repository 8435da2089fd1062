#if canImport(CAvahi)
import CAvahi
import CEventPoll
import Foundation

/// A thread of its own that runs one Avahi simple poll: every call into libavahi-client of
/// one advertiser or browser happens here, including the client's blocking D-Bus round trips,
/// so none of them holds a Swift concurrency thread. Other threads hand work over with
/// ``execute(_:)``, which only appends to a queue and signals an eventfd the poll watches
/// (the simple poll's own wake-up pipe is drained by the poll itself, so a wake-up through it
/// could be lost). ``quit()`` ends the thread, which frees the poll on its way out.
final class AvahiLoop: @unchecked Sendable {
    // Safety of @unchecked Sendable: `queued` and `quitting` are only touched under `lock`;
    // `poll`, `wakeup` and `watch` are used on the loop thread only, but for `wakeup`'s signal.

    private let poll: OpaquePointer
    private let wakeup: Int32
    private var watch: OpaquePointer?
    private let lock = NSLock()
    private var queued: [() -> Void] = []
    private var quitting = false

    /// A poll and its wake-up; the thread starts at once.
    ///
    /// - Throws: ``DiscoveryError/failed(_:_:)`` when the system gives no memory or
    ///   no descriptor for them.
    init() throws(DiscoveryError) {
        guard let poll = avahi_simple_poll_new() else { throw .failed(.connect, .outOfMemory) }
        let wakeup = handoff_wakeup_create()
        guard wakeup >= 0 else {
            avahi_simple_poll_free(poll)
            throw .failed(.connect, .noDescriptorLeft)
        }
        self.poll = poll
        self.wakeup = wakeup
        let api = avahi_simple_poll_get(poll)!
        watch = api.pointee.watch_new(api, wakeup, AVAHI_WATCH_IN, avahiLoopWoken, Unmanaged.passUnretained(self).toOpaque())
        // The thread holds the loop until it ends.
        let thread = Thread { [self] in run() }
        thread.name = "handoff.avahi"
        thread.start()
    }

    /// The poll's API, for `avahi_client_new`; use it on the loop thread only.
    var api: UnsafePointer<AvahiPoll> { avahi_simple_poll_get(poll) }

    /// Runs `work` on the loop thread, after the work handed over before it; dropped once
    /// the loop quits.
    func execute(_ work: @escaping @Sendable () -> Void) {
        let accepted = lock.withLock { () -> Bool in
            guard !quitting else { return false }
            queued.append(work)
            return true
        }
        if accepted { _ = handoff_wakeup_signal(wakeup) }
    }

    /// Runs the queued work, then ends the thread; call it from the loop thread, as the
    /// last thing a client does after freeing its Avahi objects.
    func quit() {
        lock.withLock { quitting = true }
        avahi_simple_poll_quit(poll)
    }

    fileprivate func drain() {
        handoff_wakeup_drain(wakeup)
        let work = lock.withLock { () -> [() -> Void] in
            defer { queued.removeAll() }
            return queued
        }
        for item in work { item() }
    }

    private func run() {
        // 0: one event handled; 1: quit; -1: poll() failed.
        while true {
            let result = avahi_simple_poll_iterate(poll, -1)
            if result == 1 { break }
            // poll() itself failed (it retries EINTR): rest a moment rather than spin, and go on.
            if result < 0 { usleep(10_000) }
        }
        if let watch { avahi_simple_poll_get(poll).pointee.watch_free(watch) }
        avahi_simple_poll_free(poll)
        close(wakeup)
    }
}

/// The wake-up watch's callback: runs the work other threads handed over.
private func avahiLoopWoken(_ watch: OpaquePointer?, _ descriptor: Int32, _ event: AvahiWatchEvent, _ loop: UnsafeMutableRawPointer?) {
    guard let loop else { return }
    Unmanaged<AvahiLoop>.fromOpaque(loop).takeUnretainedValue().drain()
}
#endif
