#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM during a transfer, as an async sequence, so a session can
/// cancel cleanly (an authenticated abort to the other device) instead of the process dying.
///
/// One handler serves the whole process, whichever thread the kernel picks (the PAM thread,
/// the standard-input reader, a concurrency thread): it turns terminal echo back on and writes
/// the signal's number into a pipe, both async-signal-safe; a thread of its own reads the pipe
/// and hands each signal to the current stream. Nothing else may replace the handler while a
/// transfer runs (``TerminalEcho/turnOff()`` leaves these two signals alone), so no signal
/// arriving at any moment of a transfer can end the process by its default action.
package enum Signals {
    /// The interrupts from now on: the handler is in place when this returns, so a signal
    /// that arrives right afterwards is never lost. The signals are also unblocked on this
    /// thread, because a parent may have started this process with them blocked (Foundation's
    /// `Process` passes on its thread's mask). A later call's stream replaces an earlier one.
    package static func interrupts() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        SignalPipe.shared.deliver(to: continuation)
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        return stream
    }
}

/// The pipe between the signal handler and the stream, set up once (the handler stays in
/// place until the process exits: after a transfer, a signal only ends up in a stream nobody
/// reads any more, while the process is about to exit anyway).
private final class SignalPipe: @unchecked Sendable {
    // Safety of @unchecked Sendable: `continuation` is only touched under `lock`; the
    // descriptors are written once, before the handler is installed.
    static let shared = SignalPipe()

    private let lock = NSLock()
    private var continuation: AsyncStream<Int32>.Continuation?

    private init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        signalPipeWriteEnd = ends[1]
        let readEnd = ends[0]
        let thread = Thread { [self] in readSignals(from: readEnd) }
        thread.name = "handoff.signals"
        thread.start()
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = forwardSignal
            #else
            action.__sigaction_u.__sa_handler = forwardSignal
            #endif
            sigemptyset(&action.sa_mask)
            // Blocking calls on other threads (a read, PAM's own waits) carry on after it.
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    func deliver(to continuation: AsyncStream<Int32>.Continuation) {
        lock.withLock {
            self.continuation?.finish()
            self.continuation = continuation
        }
    }

    private func readSignals(from descriptor: Int32) {
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return }
            let number = Int32(byte)
            _ = lock.withLock { continuation?.yield(number) }
        }
    }
}

// Written once before the handler is installed, then only read by it.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The handler: echo back on, the number into the pipe. Only async-signal-safe calls, and
/// `errno` is kept for the code it interrupted.
private func forwardSignal(_ number: Int32) {
    let saved = errno
    TerminalEcho.restoreFromSignal()
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}
