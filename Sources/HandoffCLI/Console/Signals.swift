#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Ctrl-C (SIGINT) and SIGTERM during a transfer, as an async sequence, so a session can
/// cancel cleanly (an authenticated abort to the other device) instead of the process dying.
package enum Signals {
    /// The interrupts from now on. The signals' default action is replaced while it runs;
    /// they are also unblocked on this thread, because a parent may have started this process
    /// with them blocked (Foundation's `Process` passes on its thread's mask).
    package static func interrupts() -> AsyncStream<Int32> {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let queue = DispatchQueue(label: "handoff.signals")
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        let retained = SignalSources(sources)
        continuation.onTermination = { _ in retained.cancel() }
        return stream
    }
}

/// Keeps the dispatch sources alive for as long as their stream is, and cancels them with it.
private final class SignalSources: @unchecked Sendable {
    // Safety of @unchecked Sendable: dispatch sources are thread-safe; the array never changes.
    private let sources: [DispatchSourceSignal]

    init(_ sources: [DispatchSourceSignal]) { self.sources = sources }

    func cancel() { sources.forEach { $0.cancel() } }
}
