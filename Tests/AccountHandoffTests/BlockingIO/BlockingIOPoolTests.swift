import Foundation
import Testing
@testable import AccountHandoff

/// The I/O pool: the order work starts in, cancellation, shutdown, and many callers at once.
@Suite struct BlockingIOPoolTests {
    /// A gate that pool work waits at (blocking its pool thread) until the test opens it; the
    /// test awaits, without blocking, until enough work waits there.
    final class Gate: @unchecked Sendable {
        // Safety of @unchecked Sendable: every property is only touched under `condition`.
        private let condition = NSCondition()
        private var isOpen = false
        private var waiting = 0
        private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// On a pool thread: waits until the gate opens.
        func wait() {
            condition.lock()
            waiting += 1
            let ready = watchers.filter { $0.count <= waiting }
            watchers.removeAll { $0.count <= waiting }
            condition.unlock()
            ready.forEach { $0.continuation.resume() }
            condition.withLock { while !isOpen { condition.wait() } }
        }

        func openNow() {
            condition.withLock {
                isOpen = true
                condition.broadcast()
            }
        }

        /// Returns once `count` pieces of work wait (or waited) at the gate.
        func awaitWaiting(_ count: Int) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = condition.withLock {
                    guard waiting < count else { return true }
                    watchers.append((count, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Waits, with a generous deadline, until `condition` holds.
    static func eventually(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "the condition never held")
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Values recorded by pool threads, in order.
    final class Log<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Value] = []
        func append(_ value: Value) { lock.withLock { values.append(value) } }
        var all: [Value] { lock.withLock { values } }
    }

    /// How many pieces of work run at once.
    final class Depth: @unchecked Sendable {
        private let lock = NSLock()
        private var now = 0
        func enter() -> Int { lock.withLock { now += 1; return now } }
        func leave() { lock.withLock { now -= 1 } }
    }

    @Test func workRunsOnAPoolThreadAndReturnsItsResult() async throws {
        let pool = BlockingIOPool(threadCount: 2, name: "test.result")
        let (mayBlock, marked, sum) = await pool.run { _ in (BlockingCall.mayBlockHere, IOThreadMark.isPoolThread, (1...10).reduce(0, +)) }
        #expect(mayBlock && marked && sum == 55)
        #expect(!IOThreadMark.isPoolThread)
        await pool.shutdown()
    }

    @Test func workThrowsItsOwnTypedError() async {
        struct Refused: Error, Equatable {}
        let pool = BlockingIOPool(threadCount: 1, name: "test.error")
        await #expect(throws: Refused()) { try await pool.run { _ throws(Refused) in throw Refused() } }
        await pool.shutdown()
    }

    /// With one thread, work starts, and finishes, in the order it was handed over.
    @Test func oneThreadRunsWorkInTheOrderItCame() async {
        let pool = BlockingIOPool(threadCount: 1, name: "test.order")
        let gate = Gate()
        let log = Log<Int>()
        pool.execute { gate.wait() }
        for index in 0..<50 { pool.execute { log.append(index) } }
        gate.openNow()
        await pool.run { _ in }  // queued after all of them
        #expect(log.all == Array(0..<50))
        await pool.shutdown()
    }

    /// Several threads start work first in, first started: the first jobs hold the threads,
    /// the others wait in order.
    @Test func threadsTakeTheOldestWorkFirst() async {
        let pool = BlockingIOPool(threadCount: 3, name: "test.fifo")
        let gate = Gate()
        let started = Log<Int>()
        for index in 0..<3 { pool.execute { started.append(index); gate.wait() } }
        await gate.awaitWaiting(3)
        for index in 3..<20 { pool.execute { started.append(index) } }
        #expect(started.all.sorted() == [0, 1, 2])
        gate.openNow()
        await pool.run { _ in }
        await pool.shutdown()
        #expect(Array(started.all.dropFirst(3)).count == 17)
        #expect(Set(started.all) == Set(0..<20))
    }

    /// Threads start only when work arrives, and never more than the pool's count.
    @Test func threadsStartWithTheWorkUpToTheCount() async {
        let pool = BlockingIOPool(threadCount: 3, name: "test.lazy")
        #expect(pool.threadsStarted == 0)
        await pool.run { _ in }
        #expect(pool.threadsStarted == 1)
        let gate = Gate()
        for _ in 0..<10 { pool.execute { gate.wait() } }
        await gate.awaitWaiting(3)
        #expect(pool.threadsStarted == 3)
        gate.openNow()
        await pool.shutdown()
        #expect(pool.threadsStarted == 0)
    }

    /// Two hundred callers on two threads: every one gets its own answer, and no more than
    /// two pieces of work ever run at once.
    @Test func manyCallersAtOnceEachGetTheirAnswer() async {
        let pool = BlockingIOPool(threadCount: 2, name: "test.many")
        let running = Log<Int>()
        let depth = Depth()
        let answers = await withTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<200 {
                group.addTask {
                    await pool.run { _ in
                        running.append(depth.enter())
                        defer { depth.leave() }
                        return (index, index * index)
                    }
                }
            }
            var collected: [Int: Int] = [:]
            for await (index, square) in group { collected[index] = square }
            return collected
        }
        #expect(answers.count == 200)
        #expect(answers.allSatisfy { $0.value == $0.key * $0.key })
        #expect(running.all.max() ?? 0 <= 2)
        await pool.shutdown()
    }

    /// A caller cancelled while its work waits in the queue: the work still runs, once, and
    /// sees that it was cancelled.
    @Test func workCancelledInTheQueueRunsAndSeesIt() async {
        let pool = BlockingIOPool(threadCount: 1, name: "test.cancel-queued")
        let gate = Gate()
        pool.execute { gate.wait() }
        await gate.awaitWaiting(1)
        let runs = Log<Bool>()
        let caller = Task { await pool.run { cancellation in runs.append(cancellation.isCancelled) } }
        caller.cancel()
        gate.openNow()
        await caller.value
        #expect(runs.all == [true])
        await pool.shutdown()
    }

    /// A caller cancelled while its work runs: the work's wake-up handler runs, so a wait
    /// inside it ends early.
    @Test func workCancelledWhileRunningIsWoken() async {
        let pool = BlockingIOPool(threadCount: 1, name: "test.cancel-running")
        let inside = Gate()
        let caller = Task {
            await pool.run { cancellation in
                let woken = Gate()
                let handler = cancellation.whenCancelled { woken.openNow() }
                inside.wait()  // tells the test the work runs; the test never opens it
                woken.wait()  // only the cancellation opens it
                cancellation.forgetHandler(handler)
                return cancellation.isCancelled
            }
        }
        await inside.awaitWaiting(1)
        inside.openNow()
        caller.cancel()
        #expect(await caller.value)
        await pool.shutdown()
    }

    /// Shutdown lets running and queued work finish, tells the queued work to stop early,
    /// and returns once every thread ended.
    @Test func shutdownFinishesQueuedWorkWithItsCancellationSet() async throws {
        let pool = BlockingIOPool(threadCount: 1, name: "test.shutdown")
        let gate = Gate()
        let seen = Log<Bool>()
        pool.execute { gate.wait() }
        await gate.awaitWaiting(1)
        pool.execute { seen.append(BlockingIOCancellation.current?.isCancelled ?? false) }
        let stopping = Task { await pool.shutdown() }
        try await Self.eventually { pool.isShuttingDown }
        gate.openNow()
        await stopping.value
        #expect(seen.all == [true])
        #expect(pool.threadsStarted == 0)
        await pool.shutdown()  // idempotent
    }

    /// The cancellation of the work on a pool thread is visible to code deep inside it.
    @Test func theCurrentCancellationIsThatOfTheRunningWork() async {
        let pool = BlockingIOPool(threadCount: 1, name: "test.current")
        let same = await pool.run { cancellation in BlockingIOCancellation.current === cancellation }
        #expect(same)
        #expect(BlockingIOCancellation.current == nil)
        await pool.shutdown()
    }
}
