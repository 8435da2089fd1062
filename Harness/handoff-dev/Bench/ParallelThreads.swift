import HandoffCLI
import Foundation

/// Runs work on several new threads at once, so that "two threads" means two running threads
/// (a dispatch queue may run both pieces on one when the machine is busy).
enum ParallelThreads {
    /// How long each thread repeats its work before the timed part starts. New threads often
    /// share one core for tens of milliseconds before the scheduler spreads them (seen on the
    /// shared 2-core machine: two threads measured at 1.0x to 1.9x of one over 70 ms), so the
    /// clock starts only once they have been running for this long.
    static let warmUpSeconds = 0.1

    /// Seconds that `threads` threads take to run `body` `iterations` times each, all starting
    /// at the same moment after ``warmUpSeconds`` of running it already; from that moment
    /// until the last thread finished.
    static func timed(threads: Int, iterations: Int, _ body: (Int) -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds + UInt64(warmUpSeconds * 1e9)
        let finish = LatestTime()
        run(threads) { thread in
            while DispatchTime.now().uptimeNanoseconds < start { body(thread) }
            for _ in 0..<iterations { body(thread) }
            finish.note(DispatchTime.now().uptimeNanoseconds)
        }
        return Double(finish.value - start) / 1e9
    }

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
    // and the benchmark's bodies share only thread-safe state (the random source)
    // or state indexed by thread.
    var body: ((Int) -> Void)?

    init(_ body: @escaping (Int) -> Void) { self.body = body }
}

/// The latest of the times several threads report.
private final class LatestTime: @unchecked Sendable {
    // Safety of @unchecked Sendable: `latest` is only touched under `lock`.
    private let lock = NSLock()
    private var latest: UInt64 = 0

    func note(_ time: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        latest = max(latest, time)
    }

    var value: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return latest
    }
}
