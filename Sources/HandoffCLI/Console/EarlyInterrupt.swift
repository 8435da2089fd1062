#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C before a session runs (at the password prompt, while the code is pasted, while a
/// named pipe or a store lock is awaited): nothing has been sent or stored yet, so `handoff`
/// says so and exits as cancelled (68), the documented exit code, with terminal echo back
/// on. A session replaces this with its own handling (``Signals``), which tells the other
/// device.
package enum EarlyInterrupt {
    static let sentence = "\n" + sentenceCatalog.sentence("interrupt.early", in: .cli) + "\n"

    /// Installs the handler for SIGINT and unblocks it on this thread (a parent may have
    /// started this process with it blocked).
    package static func install() {
        prepare()
        signal(SIGINT) { _ in EarlyInterrupt.exitFromSignal() }
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    /// The handler's work, for handlers that also do other things first. Only
    /// async-signal-safe calls: `tcsetattr` (through ``TerminalEcho``), `write`, `_exit`.
    static func exitFromSignal() -> Never {
        TerminalEcho.restoreFromSignal()
        if let bytes = message { _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
        _exit(ExitCode.cancelled.rawValue)
    }

    // Allocated before the handler can run: a handler must not allocate.
    nonisolated(unsafe) private static var message: UnsafeMutableRawBufferPointer?

    private static func prepare() {
        guard message == nil else { return }
        let utf8 = Array(sentence.utf8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: utf8.count, alignment: 1)
        buffer.copyBytes(from: utf8)
        message = buffer
    }
}
