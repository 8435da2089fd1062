import AccountHandoff
import AccountHandoffBench
import Foundation

/// Many senders waiting for a receiver at once, as a server that shows many QR codes would
/// hold them: how fast they start, what they cost in memory maps, locked and resident
/// memory, and how fast they then complete (each with its own receiver; a sender is released
/// as soon as its session completed).
///
/// The guarded pool refuses a secret rather than keep it in weaker memory (Spec 8.5): when it
/// does, at the memory-lock limit of a process without `CAP_IPC_LOCK` for instance, this size
/// is not measured and the run says how many senders were pending at that moment.
struct PendingSendersBench {
    let session: ReferenceSession
    let senders: Int
    let repetitions: Int

    /// A size that was measured, or the refusal that stopped it.
    enum Outcome {
        case measured(Result)
        case refused(Refusal)
    }

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

    /// The guarded pool refused a secret before `senders` senders were pending and completed.
    struct Refusal: Codable, Equatable {
        let senders: Int
        /// Senders pending (started and not yet completed) when the pool refused.
        let pendingWhenRefused: Int
        /// `starting` or `completing`: which half of the run was refused.
        let refusedWhile: String
        /// The pool's failure (`lockLimitReached`, `mappingLimitReached`, `capReached`, ...).
        let reason: String
        /// The guarded memory the pool had locked then, KiB.
        let guardedLockedKiB: Int

        enum CodingKeys: String, CodingKey {
            case senders, reason
            case pendingWhenRefused = "pending_when_refused", refusedWhile = "refused_while"
            case guardedLockedKiB = "guarded_locked_kib"
        }
    }

    func run() throws(BenchFailure) -> Outcome {
        let random = SystemRandomSource()
        let now = Date()
        let before = ProcessProbe.now()
        var starts: [Double] = [], completions: [Double] = [], probes: [ProcessProbe] = []
        var slabs: [Int] = [], guardedLocked: [Int] = []
        for _ in 0..<repetitions {
            var pending: [HandoffSender] = []
            pending.reserveCapacity(senders)
            let startSeconds: Double
            do {
                startSeconds = try Stopwatch.seconds { () throws(ReferenceSession.Failure) in
                    for _ in 0..<senders { pending.append(try session.start(random: random, now: now)) }
                }
            } catch {
                return .refused(try refusal(error, pending: pending.count, while: "starting"))
            }
            probes.append(.now())
            let pool = GuardedAllocator.statistics
            slabs.append(pool.slabs)
            guardedLocked.append(pool.lockedBytes / 1024)
            let completeSeconds: Double
            do {
                completeSeconds = try Stopwatch.seconds { () throws(ReferenceSession.Failure) in
                    while let sender = pending.popLast() { _ = try session.complete(sender, random: random, now: now) }
                }
            } catch {
                // The sender being completed was still pending.
                return .refused(try refusal(error, pending: pending.count + 1, while: "completing"))
            }
            starts.append(Double(senders) / startSeconds)
            completions.append(Double(senders) / completeSeconds)
        }
        return .measured(Result(
            senders: senders, repetitions: repetitions,
            startsPerSecond: Spread(starts, decimals: 0), completionsPerSecond: Spread(completions, decimals: 0),
            before: before,
            memoryMaps: Spread(probes.map { Double($0.memoryMaps) }, decimals: 0),
            lockedKiB: Spread(probes.map { Double($0.lockedKiB) }, decimals: 0),
            residentKiB: Spread(probes.map { Double($0.residentKiB) }, decimals: 0),
            guardedSlabs: slabs.sorted()[slabs.count / 2], guardedLockedKiB: guardedLocked.sorted()[guardedLocked.count / 2]))
    }

    /// The refusal `failure` stands for when the pool refused a secret; any other failure
    /// stops the bench.
    private func refusal(_ failure: ReferenceSession.Failure, pending: Int, while phase: String) throws(BenchFailure) -> Refusal {
        guard case .refused(.secureMemoryUnavailable(let reason)) = failure else { throw BenchFailure(failure) }
        return Refusal(senders: senders, pendingWhenRefused: pending, refusedWhile: phase, reason: Self.name(reason),
                       guardedLockedKiB: GuardedAllocator.statistics.lockedBytes / 1024)
    }

    /// The case's name, as the JSON gives it.
    static func name(_ failure: SecureMemoryFailure) -> String {
        switch failure {
        case .lockLimitReached: "lockLimitReached"
        case .mappingLimitReached: "mappingLimitReached"
        case .capReached: "capReached"
        case .mappingFailed(let code): "mappingFailed(errno: \(code))"
        case .protectionFailed(let code): "protectionFailed(errno: \(code))"
        case .lockFailed(let code): "lockFailed(errno: \(code))"
        case .dumpExclusionFailed(let code): "dumpExclusionFailed(errno: \(code))"
        }
    }
}
