import Foundation

/// A small pool of operating-system threads for work that blocks its thread: file locks,
/// `fsync`, SQLite, D-Bus calls, a libcurl transfer, a name lookup. Swift concurrency's
/// threads are few (one per core) and shared by every task of the process, so a task that
/// blocks one stalls unrelated work; the blocking call runs here instead, and the task that
/// asked is suspended until it returns.
///
/// ```swift
/// let registry = try await BlockingIOPool.shared.run { _ in
///     try ReceiverRegistry(storage: FileRegistryStorage(path: path))
/// }
/// ```
///
/// - Each call of ``run(_:)`` hands its work to one pool thread, in the order the calls
///   arrive (first in, first started); the calling task is suspended with a continuation,
///   never blocked.
/// - The work may block for as long as it needs: it holds its thread until it returns, and
///   other work waits in the queue meanwhile. Work must not wait for other work of the same
///   pool (with every thread waiting, nothing would run).
/// - Cancelling the calling task does not stop the work: it still runs, once, and sees
///   ``BlockingIOCancellation/isCancelled`` set, so it can give up where giving up is safe (a
///   lock wait ends, a network transfer aborts); work that must finish (a durable write)
///   simply finishes.
/// - Threads start when work first arrives, up to the pool's thread count, and then wait for
///   more work; a pool that was never used has none.
///
/// Every blocking call of the package is also checked, in debug builds, to run on a thread
/// where blocking is allowed: one of this pool's, or a thread that runs no task. State
/// machines never block and never use the pool. <doc:BlockingWork> lists what blocks and
/// where it runs.
public final class BlockingIOPool: @unchecked Sendable {
    // Safety of @unchecked Sendable: `queue`, `state` and the thread counts are only touched
    // while `condition` is locked; the rest is immutable.

    /// The process's pool: four threads, enough for a few sessions' stores, registries and
    /// waits at once. The package's own blocking work runs here.
    public static let shared = BlockingIOPool(threadCount: 4, name: "AccountHandoff.io")

    /// How many threads the pool runs at most.
    public let threadCount: Int
    /// The prefix of the pool threads' names (`<name>.<n>`).
    public let name: String

    private enum State {
        case running
        case shuttingDown
        case stopped
    }

    private let condition = NSCondition()
    private var queue = PoolQueue()
    private var state = State.running
    private var startedThreads = 0
    private var idleThreads = 0
    private var shutdownWaiters: [CheckedContinuation<Void, Never>] = []

    /// A pool of at most `threadCount` threads, started as work arrives.
    ///
    /// - Parameters:
    ///   - threadCount: 1 or more; with one thread, work runs strictly in the order it came.
    ///   - name: the prefix of the threads' names, for debuggers and `top -H`.
    public init(threadCount: Int, name: String = "AccountHandoff.io") {
        precondition(threadCount >= 1, "a BlockingIOPool needs at least one thread")
        self.threadCount = threadCount
        self.name = name
    }

    /// Runs `work` on a pool thread and returns what it returns, or throws what it throws.
    /// The calling task is suspended (not blocked) until `work` finished.
    ///
    /// - Parameter work: the blocking work; it is called exactly once, with the cancellation
    ///   of this call, which is set when the calling task is cancelled (before or while the
    ///   work runs) or the pool shuts down.
    /// - Returns: the work's result.
    /// - Throws: whatever `work` throws.
    /// - Warning: Calling this after ``shutdown()`` is a programmer error (a precondition).
    public func run<Success, Failure: Error>(
        _ work: sending @escaping (BlockingIOCancellation) throws(Failure) -> sending Success
    ) async throws(Failure) -> sending Success {
        let call = PoolCall(work: work)
        let outcome: Result<Success, Failure> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Success, Failure>, Never>) in
                call.start(resuming: continuation)
                enqueue(PoolJob(run: call.perform, cancellation: call.cancellation))
            }
        } onCancel: {
            call.cancellation.cancel()
        }
        return try outcome.get()
    }

    /// Hands `work` to a pool thread without waiting for it; for work whose result nobody
    /// waits for (a best-effort write).
    ///
    /// - Warning: Calling this after ``shutdown()`` is a programmer error (a precondition).
    package func execute(_ work: @escaping @Sendable () -> Void) {
        enqueue(PoolJob(run: work, cancellation: BlockingIOCancellation()))
    }

    /// Stops the pool: work already queued still runs, with its cancellation set so it can
    /// finish early, and then every thread ends; returns once they have. Idempotent. The
    /// ``shared`` pool is never shut down.
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            switch state {
            case .stopped:
                condition.unlock()
                continuation.resume()
                return
            case .running:
                state = .shuttingDown
                queue.forEach { $0.cancellation.cancel() }
                condition.broadcast()
            case .shuttingDown:
                break
            }
            shutdownWaiters.append(continuation)
            let done = finishShutdownIfIdle()
            condition.unlock()
            done.forEach { $0.resume() }
        }
    }

    /// Threads running now (test hook).
    package var threadsStarted: Int { condition.withLock { startedThreads } }

    /// Whether ``shutdown()`` began (test hook).
    package var isShuttingDown: Bool {
        condition.withLock {
            switch state {
            case .running: false
            case .shuttingDown, .stopped: true
            }
        }
    }

    // MARK: Threads

    private func enqueue(_ job: PoolJob) {
        condition.lock()
        guard case .running = state else {
            condition.unlock()
            preconditionFailure("work was handed to the BlockingIOPool \(name) after its shutdown")
        }
        queue.append(job)
        if idleThreads > queue.count - 1 {
            condition.signal()
        } else if startedThreads < threadCount {
            startedThreads += 1
            let thread = Thread { [self] in serve() }
            thread.name = "\(name).\(startedThreads)"
            thread.start()
        }
        condition.unlock()
    }

    /// A pool thread's life: take the oldest job, run it, and again, until the pool stops.
    private func serve() {
        let mark = IOThreadMark.markCurrentThread()
        while true {
            condition.lock()
            while queue.isEmpty, case .running = state {
                idleThreads += 1
                condition.wait()
                idleThreads -= 1
            }
            guard let job = queue.popFirst() else {
                startedThreads -= 1
                let done = finishShutdownIfIdle()
                condition.unlock()
                done.forEach { $0.resume() }
                return
            }
            condition.unlock()
            mark.cancellation = job.cancellation
            job.run()
            mark.cancellation = nil
        }
    }

    /// With `condition` locked: once shutting down with no thread left, the waiters to resume.
    private func finishShutdownIfIdle() -> [CheckedContinuation<Void, Never>] {
        guard case .shuttingDown = state, startedThreads == 0 else { return [] }
        state = .stopped
        let waiters = shutdownWaiters
        shutdownWaiters.removeAll()
        return waiters
    }
}
