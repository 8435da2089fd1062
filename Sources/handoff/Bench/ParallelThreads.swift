import Foundation

/// Runs work on several new threads at once, so that "two threads" means two running threads
/// (a dispatch queue may run both pieces on one when the machine is busy).
enum ParallelThreads {
    /// Calls `body(0)` ... `body(count - 1)`, each on its own new thread, and returns when all
    /// have returned.
    static func run(_ count: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            let work = UncheckedWork(body)
            let finished = DispatchGroup()
            for index in 0..<count {
                finished.enter()
                let thread = Thread {
                    work.body?(index)
                    finished.leave()
                }
                thread.start()
            }
            finished.wait()
            work.body = nil  // the threads may outlive this call; the closure must not

        }
    }
}

/// The work of ``ParallelThreads``, handed to the threads it starts.
private final class UncheckedWork: @unchecked Sendable {
    // Safety of @unchecked Sendable: every thread has called `body` before `run` clears it,
    // and the benchmark's bodies share only thread-safe state (the pool, the random source)
    // or state indexed by thread.
    var body: ((Int) -> Void)?

    init(_ body: @escaping (Int) -> Void) { self.body = body }
}
