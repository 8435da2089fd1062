import AccountHandoff
import Foundation

/// Many senders waiting for a receiver at once, as a server that shows many QR codes would
/// hold them: how fast they start, what they cost in memory maps, locked and resident
/// memory, and how fast they then complete (each with its own receiver; a sender is released
/// as soon as its session completed).
struct PendingSendersBench {
    let session: ReferenceSession
    let senders: Int
    let repetitions: Int

    struct Result: Codable, Equatable {
        let senders: Int
        let repetitions: Int
        let startsPerSecond: Spread
        let completionsPerSecond: Spread
        /// Before the first start.
        let before: ProcessProbe
        /// With every sender pending.
        let memoryMaps: Spread
        let lockedKiB: Spread
        let residentKiB: Spread
        /// Guarded memory the pool held with every sender pending (median over repetitions).
        let guardedSlabs: Int
        let guardedLockedKiB: Int

        enum CodingKeys: String, CodingKey {
            case senders, repetitions, before
            case startsPerSecond = "starts_per_second", completionsPerSecond = "completions_per_second"
            case memoryMaps = "memory_maps", lockedKiB = "locked_kib", residentKiB = "resident_kib"
            case guardedSlabs = "guarded_slabs", guardedLockedKiB = "guarded_locked_kib"
        }
    }

    func run() throws(BenchFailure) -> Result {
        let random = SystemRandomSource()
        let now = Date()
        let before = ProcessProbe.now()
        var starts: [Double] = [], completions: [Double] = [], probes: [ProcessProbe] = []
        var slabs: [Int] = [], guardedLocked: [Int] = []
        for _ in 0..<repetitions {
            var pending: [HandoffSender] = []
            pending.reserveCapacity(senders)
            let startSeconds = try Stopwatch.seconds { () throws(BenchFailure) in
                do throws(ReferenceSession.Failure) {
                    for _ in 0..<senders { pending.append(try session.start(random: random, now: now)) }
                } catch { throw BenchFailure(error) }
            }
            probes.append(.now())
            let pool = GuardedAllocator.statistics
            slabs.append(pool.slabs)
            guardedLocked.append(pool.lockedBytes / 1024)
            let completeSeconds = try Stopwatch.seconds { () throws(BenchFailure) in
                do throws(ReferenceSession.Failure) {
                    while let sender = pending.popLast() { _ = try session.complete(sender, random: random, now: now) }
                } catch { throw BenchFailure(error) }
            }
            starts.append(Double(senders) / startSeconds)
            completions.append(Double(senders) / completeSeconds)
        }
        return Result(
            senders: senders, repetitions: repetitions,
            startsPerSecond: Spread(starts, decimals: 0), completionsPerSecond: Spread(completions, decimals: 0),
            before: before,
            memoryMaps: Spread(probes.map { Double($0.memoryMaps) }, decimals: 0),
            lockedKiB: Spread(probes.map { Double($0.lockedKiB) }, decimals: 0),
            residentKiB: Spread(probes.map { Double($0.residentKiB) }, decimals: 0),
            guardedSlabs: slabs.sorted()[slabs.count / 2], guardedLockedKiB: guardedLocked.sorted()[guardedLocked.count / 2])
    }
}
