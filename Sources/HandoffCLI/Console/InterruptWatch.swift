#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one async-signal-safe thing the handler below does: set this flag.
nonisolated(unsafe) private var interruptReceived: sig_atomic_t = 0

/// Ctrl-C (SIGINT) and SIGTERM noticed by a plain signal handler, installed synchronously, so
/// a signal that arrives right after ``start()`` returns is never lost (a dispatch signal
/// source registers later, and an ignored signal in between would vanish). For short waits
/// that poll anyway; ``stop()`` restores the default actions.
enum InterruptWatch {
    /// Installs the handler and unblocks both signals on this thread (a parent may have
    /// started this process with them blocked).
    static func start() {
        interruptReceived = 0
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        signal(SIGINT) { _ in interruptReceived = 1 }
        signal(SIGTERM) { _ in interruptReceived = 1 }
    }

    /// Whether a signal arrived since ``start()``.
    static var interrupted: Bool { interruptReceived != 0 }

    /// Restores the actions from before: Ctrl-C cancels (``EarlyInterrupt``), SIGTERM ends
    /// the process.
    static func stop() {
        EarlyInterrupt.install()
        signal(SIGTERM, SIG_DFL)
    }
}
