#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import TestProcesses
import Testing

/// The event loop's parts on their own: the timer heap's order, the poller's readiness reports,
/// and the loop's scheduling of work, deadlines and descriptors (and the end of a
/// registration). Every wait is for the event itself, with a deadline only a hung loop meets.
@Suite struct EventLoopTests {
    /// A deadline target that records when the loop reached it.
    final class Alarm: DeadlineTarget, @unchecked Sendable {
        // Safety of @unchecked Sendable: `reached` is only touched under `recorder`'s lock.
        let name: Int
        let recorder: Recorder
        init(_ name: Int, _ recorder: Recorder) {
            self.name = name
            self.recorder = recorder
        }
        func deadlineReached(now: ContinuousClock.Instant) { recorder.note(name, at: now) }
    }

    /// What happened on the loop thread, in order.
    final class Recorder: @unchecked Sendable {
        // Safety of @unchecked Sendable: everything is only touched under `lock`.
        private let lock = NSLock()
        private var entries: [(name: Int, at: ContinuousClock.Instant, thread: UInt)] = []
        func note(_ name: Int, at instant: ContinuousClock.Instant = .now) {
            let thread = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self()))))
            lock.withLock { entries.append((name, instant, thread)) }
        }
        var names: [Int] { lock.withLock { entries.map(\.name) } }
        var instants: [ContinuousClock.Instant] { lock.withLock { entries.map(\.at) } }
        /// The threads the entries were made on.
        var threads: Set<UInt> { lock.withLock { Set(entries.map(\.thread)) } }
        func count(of name: Int) -> Int { lock.withLock { entries.filter { $0.name == name }.count } }
    }

    /// A poll handler that records the events of its descriptor.
    final class Watcher: PollHandler, @unchecked Sendable {
        // Safety of @unchecked Sendable: `recorder` is thread-safe; `name` is immutable.
        let name: Int
        let recorder: Recorder
        init(_ name: Int, _ recorder: Recorder) {
            self.name = name
            self.recorder = recorder
        }
        func handle(_ event: PollEvent) { recorder.note(name) }
    }

    // MARK: TimerHeap

    @Test func theHeapGivesItsTargetsInOrderOfInstantThenOfInsertion() {
        let recorder = Recorder()
        let start = ContinuousClock.now
        var heap = TimerHeap()
        #expect(heap.earliest == nil && heap.count == 0)
        // 200 wake-ups at 20 distinct instants, in a shuffled (seeded) order.
        let random = InsecureDeterministicRandom(seed: 7)
        var order: [(offset: Int, name: Int)] = (0..<200).map { ((($0 * 37) % 20) * 10, $0) }
        for index in order.indices.reversed() {
            var byte: UInt8 = 0
            withUnsafeMutableBytes(of: &byte) { random.fill($0) }
            order.swapAt(index, Int(byte) % (index + 1))
        }
        for (offset, name) in order { heap.insert(Alarm(name, recorder), at: start + .milliseconds(offset)) }
        #expect(heap.count == 200)
        #expect(heap.earliest == start)

        // Nothing is due before the earliest instant; everything up to an instant is, no more.
        #expect(heap.popDue(now: start - .milliseconds(1)).isEmpty)
        let firstHalf = heap.popDue(now: start + .milliseconds(90)).map { ($0 as! Alarm).name }
        #expect(heap.count == 100)
        #expect(heap.earliest == start + .milliseconds(100))
        let rest = heap.popDue(now: start + .seconds(60)).map { ($0 as! Alarm).name }
        #expect(heap.count == 0 && heap.earliest == nil)

        // By instant, and within one instant in the order the shuffled list inserted them.
        let byInstantThenInsertion = order.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element.name)
        #expect(firstHalf + rest == byInstantThenInsertion)
        #expect(firstHalf.count == 100)
    }

    @Test func aTargetAddedTwiceIsGivenTwice() {
        let recorder = Recorder()
        let alarm = Alarm(1, recorder)
        let start = ContinuousClock.now
        var heap = TimerHeap()
        heap.insert(alarm, at: start + .seconds(2))
        heap.insert(alarm, at: start + .seconds(1))
        #expect(heap.popDue(now: start + .seconds(1)).count == 1)
        #expect(heap.earliest == start + .seconds(2))
        #expect(heap.popDue(now: start + .seconds(2)).count == 1)
    }

    // MARK: Poller

    /// A connected pair of sockets, closed by the caller.
    static func socketPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        try #require(socketpair(AF_UNIX, type, 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    static func send(_ descriptor: Int32, _ byte: UInt8 = 0x41) {
        var value = byte
        #expect(write(descriptor, &value, 1) == 1)
    }

    @Test func thePollerReportsReadinessLevelTriggeredUntilItIsConsumed() throws {
        let poller = try Poller()
        let (reading, writing) = try Self.socketPair()
        defer {
            close(reading)
            close(writing)
        }
        try poller.add(reading, token: 7, interest: .readable)
        #expect(try poller.wait(timeout: .zero).isEmpty, "nothing is ready yet")

        Self.send(writing)
        let ready = try poller.wait(timeout: Patience.deadline)
        #expect(ready.map(\.token) == [7])
        #expect(ready.first?.readable == true && ready.first?.writable == false && ready.first?.failed == false)
        // Level-triggered: still ready while the byte is unread.
        #expect(try poller.wait(timeout: .zero).map(\.token) == [7])
        var byte: UInt8 = 0
        #expect(read(reading, &byte, 1) == 1)
        #expect(try poller.wait(timeout: .zero).isEmpty, "the byte was read")
    }

    @Test func thePollerReportsWritabilityOnlyWhileAskedAndNothingOnceRemoved() throws {
        let poller = try Poller()
        let (one, other) = try Self.socketPair()
        defer {
            close(one)
            close(other)
        }
        try poller.add(one, token: 3, interest: .writable)
        let ready = try poller.wait(timeout: Patience.deadline)
        #expect(ready.map(\.token) == [3] && ready.first?.writable == true)

        try poller.modify(one, token: 3, interest: [])
        Self.send(other)
        #expect(try poller.wait(timeout: .zero).isEmpty, "neither readiness is asked for")
        try poller.modify(one, token: 4, interest: [.readable, .writable])
        let both = try poller.wait(timeout: Patience.deadline)
        #expect(both.map(\.token) == [4] && both.first?.readable == true && both.first?.writable == true)

        poller.remove(one)
        #expect(try poller.wait(timeout: .zero).isEmpty, "a removed descriptor is never reported")
    }

    @Test func thePollerReportsAHangUpAsAFailure() throws {
        let poller = try Poller()
        let (reading, writing) = try Self.socketPair()
        defer { close(reading) }
        try poller.add(reading, token: 9, interest: .readable)
        close(writing)
        let ready = try poller.wait(timeout: Patience.deadline)
        #expect(ready.map(\.token) == [9])
        #expect(ready.first?.failed == true)
        var byte: UInt8 = 0
        #expect(read(reading, &byte, 1) == 0, "the next read says which: the end of the stream")
    }

    @Test func aWakeUpFromAnotherThreadEndsTheWaitAndIsDrained() async throws {
        let poller = try Poller()
        let waker = Thread { poller.wake() }
        waker.start()
        let ready = try poller.wait(timeout: Patience.deadline)
        #expect(ready.map(\.token) == [Poller.wakeToken])
        poller.drainWakeUp()
        #expect(try poller.wait(timeout: .zero).isEmpty, "the wake-up was drained")
    }

    // MARK: EventLoop

    @Test func workRunsOnTheLoopThreadInTheOrderItWasHandedOver() async throws {
        let loop = try EventLoop.shared()
        let recorder = Recorder()
        for name in 0..<200 { loop.execute { recorder.note(name) } }
        #expect(await Patience.waitUntil { recorder.names.count == 200 })
        #expect(recorder.names == Array(0..<200))
        #expect(recorder.threads.count == 1, "one loop thread ran them all")
        #expect(recorder.threads == (try await Self.loopThread(loop)))
    }

    @Test func deadlinesComeInOrderAndNeverEarly() async throws {
        let loop = try EventLoop.shared()
        let recorder = Recorder()
        let start = ContinuousClock.now
        let offsets = [30, 10, 20, 10]
        let asked = offsets.map { start + .milliseconds($0) }
        loop.execute {
            for (name, instant) in asked.enumerated() { loop.wake(Alarm(name, recorder), at: instant) }
        }
        #expect(await Patience.waitUntil { recorder.names.count == 4 })
        #expect(recorder.names == [1, 3, 2, 0], "by instant, then in the order asked")
        for (name, reached) in zip(recorder.names, recorder.instants) {
            #expect(reached >= asked[name], "deadline \(name) was reached before its instant")
        }
        #expect(recorder.threads == (try await Self.loopThread(loop)))
    }

    /// The loop's thread, as ``Recorder`` names threads.
    static func loopThread(_ loop: EventLoop) async throws -> Set<UInt> {
        let probe = Recorder()
        loop.execute { probe.note(0) }
        try #require(await Patience.waitUntil { probe.names == [0] })
        return probe.threads
    }

    @Test func aDescriptorIsServedUntilItIsUnregistered() async throws {
        let loop = try EventLoop.shared()
        let recorder = Recorder()
        let (first, firstPeer) = try Self.socketPair()
        let (second, secondPeer) = try Self.socketPair()
        defer { [first, firstPeer, second, secondPeer].forEach { close($0) } }
        let firstWatcher = Watcher(1, recorder)
        let secondWatcher = Watcher(2, recorder)
        let tokens = TokenBox()
        loop.execute {
            tokens.first = try? loop.register(first, interest: .readable, handler: firstWatcher)
            tokens.second = try? loop.register(second, interest: .readable, handler: secondWatcher)
            recorder.note(0)
        }
        #expect(await Patience.waitUntil { recorder.count(of: 0) == 1 })
        #expect(tokens.first != nil && tokens.second != nil)

        // Served: a byte on the first makes the loop call its handler (again and again: the
        // byte stays unread and readiness is level-triggered).
        Self.send(firstPeer)
        #expect(await Patience.waitUntil { recorder.count(of: 1) >= 1 })

        // Unregistered on the loop thread; then both descriptors become ready together, and a
        // pass of the loop that serves the second would have served the first with it.
        loop.execute {
            if let token = tokens.first { loop.unregister(first, token: token) }
            recorder.note(10)
        }
        #expect(await Patience.waitUntil { recorder.count(of: 10) == 1 })
        let servedBefore = recorder.count(of: 1)
        Self.send(secondPeer)
        #expect(await Patience.waitUntil { recorder.count(of: 2) >= 1 })
        loop.execute { recorder.note(20) }  // the pass that served the second is over
        #expect(await Patience.waitUntil { recorder.count(of: 20) == 1 })
        #expect(recorder.count(of: 1) == servedBefore, "the first descriptor was served after it was unregistered")
        loop.execute { if let token = tokens.second { loop.unregister(second, token: token) } }
        loop.execute { recorder.note(30) }
        #expect(await Patience.waitUntil { recorder.count(of: 30) == 1 })
    }

    /// Registration tokens handed from the loop thread to the test.
    final class TokenBox: @unchecked Sendable {
        // Safety of @unchecked Sendable: written on the loop thread before a recorder note the
        // test waits for, read after it.
        var first: UInt64?
        var second: UInt64?
    }
}
