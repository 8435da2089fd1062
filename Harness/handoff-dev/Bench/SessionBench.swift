import HandoffCLI
import AccountHandoff
import AccountHandoffBench
import Foundation

/// A benchmark session that did not complete: the bench stops, as its numbers would be wrong.
struct BenchFailure: Error {
    let message: String

    init(_ failure: ReferenceSession.Failure) {
        if case .refused(let refused) = failure, let reason = refused.secureMemoryFailure {
            message = "A benchmark session could not get its guarded memory, so the benchmark stopped: \(reason)"
        } else {
            message = "A benchmark session did not complete (\(failure)); the benchmark stopped."
        }
    }

    init(_ message: String) { self.message = message }
}

/// The full session against its exact floor, on one and two threads, with what one session
/// costs in libsodium calls, heap allocations and wire bytes.
///
/// The floor and the session alternate run by run (floor, session, floor, session, ...), each
/// run timed on its own, so that whatever else the host does falls on both alike; the ratio
/// is taken per pair and summarised over all pairs.
struct SessionBench {
    let session: ReferenceSession
    let iterations: Int
    let repetitions: Int
    /// Sessions whose heap allocations are counted (``HeapCounter``).
    static let countedSessions = 20

    struct Result {
        var floorMicroseconds: Spread
        var sessionMicroseconds: Spread
        /// Over every pair of a floor run and the session run right after it.
        var sessionOverFloor: Spread
        var timedPairs: Int
        var sessionsPerSecondOneThread: Spread
        var sessionsPerSecondTwoThreads: Spread
        var floorSessionsPerSecondOneThread: Spread
        var floorSessionsPerSecondTwoThreads: Spread
        /// The libsodium calls of one floor run and of one session; nil where they cannot be counted.
        var floorCounts: SodiumCalls.Counts?
        var sessionCounts: SodiumCalls.Counts?
        var wire: ReferenceSession.Wire
        var qrTextCharacters: Int
        /// Heap allocations per session; nil where they cannot be counted.
        var heapAllocationsPerSession: Double?
    }

    func run() throws(BenchFailure) -> Result {
        let floor = SessionFloor(session)
        let random = SystemRandomSource()
        let now = Date()
        // Warm up: code paged in, the first arenas mapped.
        for _ in 0..<min(50, iterations) {
            floor.runOneSession()
            _ = try runSession(random, now)
        }
        let ((), floorCounts) = SodiumCalls.measure { floor.runOneSession() }
        let (measured, sessionCounts) = try SodiumCalls.measure { () throws(BenchFailure) in try runSession(random, now) }
        let heapAllocations = try heapAllocationsPerSession(random, now)

        var floorTimes: [Double] = [], sessionTimes: [Double] = [], ratios: [Double] = []
        ratios.reserveCapacity(repetitions * iterations)
        for _ in 0..<repetitions {
            var floorTotal = 0.0, sessionTotal = 0.0
            for _ in 0..<iterations {
                let floorTime = Stopwatch.microseconds(per: 1) { floor.runOneSession() }
                let sessionTime = try Stopwatch.microseconds(per: 1) { () throws(BenchFailure) in _ = try runSession(random, now) }
                floorTotal += floorTime
                sessionTotal += sessionTime
                ratios.append(sessionTime / floorTime)
            }
            floorTimes.append(floorTotal / Double(iterations))
            sessionTimes.append(sessionTotal / Double(iterations))
        }

        var one: [Double] = [], two: [Double] = [], floorOne: [Double] = [], floorTwo: [Double] = []
        for _ in 0..<repetitions {
            one.append(try rate(threads: 1) { (_) throws(BenchFailure) in _ = try runSession(random, now) })
            two.append(try rate(threads: 2) { (_) throws(BenchFailure) in _ = try runSession(random, now) })
            let floors = [SessionFloor(session), SessionFloor(session)]
            floorOne.append(try rate(threads: 1) { thread in floors[thread].runOneSession() })
            floorTwo.append(try rate(threads: 2) { thread in floors[thread].runOneSession() })
        }
        return Result(
            floorMicroseconds: Spread(floorTimes, decimals: 2), sessionMicroseconds: Spread(sessionTimes, decimals: 2),
            sessionOverFloor: Spread(ratios, decimals: 3), timedPairs: ratios.count,
            sessionsPerSecondOneThread: Spread(one, decimals: 0), sessionsPerSecondTwoThreads: Spread(two, decimals: 0),
            floorSessionsPerSecondOneThread: Spread(floorOne, decimals: 0),
            floorSessionsPerSecondTwoThreads: Spread(floorTwo, decimals: 0),
            floorCounts: floorCounts, sessionCounts: sessionCounts, wire: measured,
            qrTextCharacters: (try? session.start(random: random, now: now))?.payload.text.utf8.count ?? 0,
            heapAllocationsPerSession: heapAllocations)
    }

    /// Over ``countedSessions`` sessions after the warm-up, on their own (not timed).
    private func heapAllocationsPerSession(_ random: RandomSource, _ now: Date) throws(BenchFailure) -> Double? {
        let ((), allocations) = try HeapCounter.measure { () throws(BenchFailure) in
            for _ in 0..<Self.countedSessions { _ = try runSession(random, now) }
        }
        return allocations.map { Double($0) / Double(Self.countedSessions) }
    }

    private func runSession(_ random: RandomSource, _ now: Date) throws(BenchFailure) -> ReferenceSession.Wire {
        do { return try session.run(random: random, now: now) } catch { throw BenchFailure(error) }
    }

    /// Sessions per second in total when `threads` threads each run `iterations` of `body`
    /// (given the thread's index) at the same time (``ParallelThreads/timed(threads:iterations:_:)``).
    private func rate(threads: Int, _ body: (Int) throws(BenchFailure) -> Void) throws(BenchFailure) -> Double {
        let failure = FirstFailure()
        let seconds = ParallelThreads.timed(threads: threads, iterations: iterations) { thread in
            guard failure.error == nil else { return }
            do throws(BenchFailure) { try body(thread) } catch { failure.record(error) }
        }
        if let error = failure.error { throw error }
        return Double(threads * iterations) / seconds
    }
}

/// The first failure of concurrent runs.
final class FirstFailure: @unchecked Sendable {
    // Safety of @unchecked Sendable: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: BenchFailure?

    func record(_ failure: BenchFailure) {
        lock.lock()
        defer { lock.unlock() }
        if stored == nil { stored = failure }
    }

    var error: BenchFailure? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
