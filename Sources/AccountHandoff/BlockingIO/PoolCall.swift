/// One call of ``BlockingIOPool/run(_:)``: the work, its cancellation, and the continuation
/// of the task that waits for it.
final class PoolCall<Success, Failure: Error>: @unchecked Sendable {
    // Safety of @unchecked Sendable: `work` and `continuation` are set before the call is
    // queued (the queue's lock publishes them) and then used by exactly one pool thread, in
    // `perform`, which takes them out; the work and its result were `sending`, so nothing
    // else holds them.
    private var work: ((BlockingIOCancellation) throws(Failure) -> Success)?
    private var continuation: CheckedContinuation<Result<Success, Failure>, Never>?
    let cancellation = BlockingIOCancellation()

    init(work: sending @escaping (BlockingIOCancellation) throws(Failure) -> sending Success) {
        self.work = work
    }

    /// Records who waits for the result; before the call is queued.
    func start(resuming continuation: CheckedContinuation<Result<Success, Failure>, Never>) {
        self.continuation = continuation
    }

    /// Runs the work on the calling (pool) thread and resumes the waiting task with its result.
    func perform() {
        guard let work, let continuation else { preconditionFailure("a pool call runs once") }
        self.work = nil
        self.continuation = nil
        nonisolated(unsafe) let outcome = Result { () throws(Failure) -> Success in try work(cancellation) }
        continuation.resume(returning: outcome)
    }
}

/// What the pool's queue holds: the work to run, and its cancellation.
struct PoolJob: Sendable {
    let run: @Sendable () -> Void
    let cancellation: BlockingIOCancellation
}

/// The pool's first-in, first-out queue of jobs.
struct PoolQueue {
    private var jobs: [PoolJob] = []
    private var head = 0

    var isEmpty: Bool { head == jobs.count }
    var count: Int { jobs.count - head }

    mutating func append(_ job: PoolJob) { jobs.append(job) }

    mutating func popFirst() -> PoolJob? {
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    func forEach(_ body: (PoolJob) -> Void) { jobs[head...].forEach(body) }
}
