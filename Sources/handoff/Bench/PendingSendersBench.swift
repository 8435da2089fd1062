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
/// is not measured and the run says how many senders were pending at that moment. Admission
/// reserves at `start` all a session will need, so the pool refuses a start, never a
/// completion; ``admission(session:lockLimit:)`` shows that under the limit in force.
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

    /// Under a memory-lock limit that applies: as many senders as admission lets start, then
    /// every one of them completed (each with its own receiver), with the first refused start.
    struct Admission: Codable, Equatable {
        /// Senders that started before the first refusal.
        let admitted: Int
        /// Of those, the ones whose session then completed (`completed.imported` on both sides).
        let completed: Int
        /// The pool's failure that refused the next start (`lockLimitReached`, ...).
        let refusedReason: String
        /// Admitted senders per MiB of the lock limit.
        let admittedPerMiB: Int
        /// Slab bytes one pending sender reserves (its slots with their canary words).
        let senderReservationBytes: Int
        /// The guarded memory the pool had locked with every admitted sender pending, KiB.
        let guardedLockedKiB: Int

        enum CodingKeys: String, CodingKey {
            case admitted, completed
            case refusedReason = "refused_reason", admittedPerMiB = "admitted_per_mib"
            case senderReservationBytes = "sender_reservation_bytes", guardedLockedKiB = "guarded_locked_kib"
        }
    }

    /// Starts senders until the pool refuses one, then completes every one that started. The
    /// receivers run in this process too (on real devices they live elsewhere), one at a time:
    /// a receiver's reservation is set aside first, so that it does not compete with the
    /// senders, and handed back before the completions. Nil when `lockLimit` does not apply
    /// (the pool's cap would be the limit then).
    static func admission(session: ReferenceSession, lockLimit: LockLimit) throws(BenchFailure) -> Admission? {
        guard lockLimit.applies, let limitKiB = lockLimit.kib, limitKiB > 0 else { return nil }
        let random = SystemRandomSource()
        let now = Date()
        let receiverRoom = try? GuardedAllocator.reserve(SessionMemory.receiver)
        var pending: [HandoffSender] = []
        var refusedReason = ""
        while refusedReason.isEmpty {
            do {
                pending.append(try session.start(random: random, now: now))
            } catch {
                guard case .refused(let refused) = error, let reason = refused.secureMemoryFailure else { throw BenchFailure(error) }
                refusedReason = name(reason)
            }
        }
        let admitted = pending.count
        let guardedLockedKiB = GuardedAllocator.statistics.lockedBytes / 1024
        receiverRoom?.end()
        var completed = 0
        while let sender = pending.popLast() {
            guard (try? session.complete(sender, random: random, now: now)) != nil else { break }
            completed += 1
        }
        return Admission(admitted: admitted, completed: completed, refusedReason: refusedReason,
                         admittedPerMiB: admitted * 1024 / limitKiB, senderReservationBytes: SessionMemory.sender.slabBytes,
                         guardedLockedKiB: guardedLockedKiB)
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
        guard case .refused(let refused) = failure, let reason = refused.secureMemoryFailure else { throw BenchFailure(failure) }
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
