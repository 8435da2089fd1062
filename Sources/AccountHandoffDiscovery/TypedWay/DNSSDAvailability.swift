/// Whether this device can use the local network's device discovery for the typed way
/// (Spec 11.10), asked before a sending device offers it or a receiving device browses.
public enum DNSSDAvailability {
    /// `nil` when the platform's DNS-SD daemon answers; otherwise why not, as a
    /// ``DiscoveryError`` whose sentence says what to do. Waits for the daemon's answer on the
    /// adapter's own thread, never blocking the caller's.
    public static func check() async -> DiscoveryError? {
        #if canImport(CAvahi)
        await withCheckedContinuation { (continuation: CheckedContinuation<DiscoveryError?, Never>) in
            let once = ResumeOnce(continuation)
            // Held until it answers: libavahi's callbacks reach the check through an unretained pointer.
            once.keep(AvahiClientCore.launch({ AvahiDaemonCheck(loop: $0) { once.resume($0) } }) { once.resume($0) })
        }
        #else
        nil  // Bonjour (dns_sd) is part of every Apple system.
        #endif
    }
}

#if canImport(CAvahi)
import Foundation

/// Resumes a continuation once, whichever of two paths answers first, and keeps the check
/// alive until then.
private final class ResumeOnce: @unchecked Sendable {
    // Safety of @unchecked Sendable: `continuation` and `check` are only touched under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<DiscoveryError?, Never>?
    private var check: AnyObject?

    func keep(_ check: AnyObject?) {
        lock.withLock { if continuation != nil { self.check = check } }
    }

    init(_ continuation: CheckedContinuation<DiscoveryError?, Never>) {
        self.continuation = continuation
    }

    func resume(_ error: DiscoveryError?) {
        lock.withLock {
            continuation?.resume(returning: error)
            continuation = nil
            check = nil
        }
    }
}
#endif
