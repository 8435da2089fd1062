import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// Spec 6.7: a receiving device whose sender never reveals gives up after the reveal wait; once
/// the code has expired, only the expiry with its skew tolerance (Spec 6.0) wakes its timer.
@Suite struct RevealWaitTests {
    /// A clock that moves when the test says and wakes the sleepers it passes. It counts the
    /// sleeps asked for a time already past since it last moved: a timer that keeps asking is
    /// spinning, and after 1,000 such sleeps it is stopped (its sleep throws) and reported.
    final class SpinDetectingClock: HandoffClock, @unchecked Sendable {
        // Safety of @unchecked Sendable: every property is touched only under `lock`.
        private let lock = NSLock()
        private var time: Date
        private var sleepers: [(deadline: Date, continuation: CheckedContinuation<Void, any Error>)] = []
        private var sleepsAlreadyDue = 0
        private var stoppedSpinning = false

        init(start: Date) { time = start }

        func now() -> Date { lock.withLock { time } }

        func sleep(until deadline: Date) async throws {
            let spinning: Bool = lock.withLock {
                guard time >= deadline else { return false }
                sleepsAlreadyDue += 1
                if sleepsAlreadyDue > 1_000 { stoppedSpinning = true }
                return true
            }
            if spinning {
                if spun { throw CancellationError() }
                return
            }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let due: Bool = lock.withLock {
                    if time >= deadline { return true }
                    sleepers.append((deadline, continuation))
                    return false
                }
                if due { continuation.resume() }
            }
        }

        func set(_ date: Date) {
            let due: [CheckedContinuation<Void, any Error>] = lock.withLock {
                time = date
                sleepsAlreadyDue = 0
                let ready = sleepers.filter { $0.deadline <= date }
                sleepers.removeAll { $0.deadline <= date }
                return ready.map(\.continuation)
            }
            due.forEach { $0.resume() }
        }

        var sleeperCount: Int { lock.withLock { sleepers.count } }
        var spun: Bool { lock.withLock { stoppedSpinning } }
    }

    /// Found by the driver fuzzer (Fuzz/regressions/FuzzDrivers): a receiver scanned at the
    /// start, with the clock then past the code's expiry (181 s) but before its effective expiry
    /// (210 s), kept the reveal wait (30 s, passed) as its next deadline, so its timer fed `tick`
    /// in a loop until 210 s. Now the timer sleeps until 210 s, and the session ends as expired.
    @Test func pastTheExpiryTheTimerSleepsUntilTheSkewToleranceEnds() async throws {
        let clock = SpinDetectingClock(start: Fixtures.start)
        let sender = try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                             random: InsecureDeterministicRandom(seed: Fixtures.senderSeed), now: Fixtures.start)
        defer { _ = try? sender.handle(.cancel, now: Fixtures.start) }
        let channels = InMemoryFrameChannel.pair()
        let session = HandoffReceiverSession(payload: sender.payload, importer: RecordingImporter(),
                                             authenticator: ScriptedAuthenticator(always: .authenticated),
                                             registry: ReceiverRegistry.inMemory(), clock: clock,
                                             random: InsecureDeterministicRandom(seed: Fixtures.receiverSeed)) { _ in channels.receiver }
        let running = Task { await session.run() }
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.set(Fixtures.time(Fixtures.lifetime + 1))
        while clock.sleeperCount == 0, !clock.spun { await Task.yield() }
        #expect(!clock.spun, "the receiver's timer spun on the passed reveal wait")
        if clock.spun {
            // Its timer is stopped: end the session instead of waiting for an expiry it cannot see.
            await session.cancel()
            _ = await running.value
            return
        }
        #expect(await session.outcome == nil)
        clock.set(Fixtures.time(Fixtures.lifetime + Fixtures.skew))
        #expect(await running.value == .ended(.expired))
    }
}
