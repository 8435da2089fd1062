#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C during a transfer cancels it cleanly (an authenticated abort to the other device)
/// instead of killing the process.
enum Interrupt {
    // Written only by the signal handler and read by the session loop; a torn read is
    // impossible for a 32-bit value and a late read only delays the cancel by one loop.
    nonisolated(unsafe) private static var raised: sig_atomic_t = 0

    /// Routes SIGINT and SIGTERM to ``requested``. Call once per process, from the main thread.
    ///
    /// The signals are also unblocked on the calling thread: a parent may have started this
    /// process with them blocked (Foundation's `Process` passes on its thread's mask), and a
    /// blocked Ctrl-C would never cancel anything.
    static func install() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        signal(SIGINT) { _ in Interrupt.raised = 1 }
        signal(SIGTERM) { _ in Interrupt.raised = 1 }
    }

    /// Whether the person pressed Ctrl-C (or the process got SIGTERM) since ``install()``.
    static var requested: Bool { raised != 0 }
}
