import AccountHandoff
import AccountHandoffBench
import Foundation

/// Many senders waiting for a receiver at once, as a device that shows several QR codes would
/// hold them: how fast they start, what each costs in memory maps and locked and resident
/// memory, and how fast they then complete (each with its own receiver; a sender is released
/// as soon as its session completed).
///
/// Each session takes one guarded arena when it starts (Spec 8.5) and refuses to start rather
/// than keep a secret in weaker memory: when that happens, at the memory-lock limit of a
/// process without `CAP_IPC_LOCK` for instance, this size is not measured and the run says how
/// many senders were pending at that moment. A session that started has all it needs, so a
/// start can be refused, never a completion; ``admission(session:lockLimit:)`` shows that
/// under the limit in force.
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
        /// Locked memory each pending sender adds: (VmLck with all pending - before) / senders.
        let lockedBytesPerSender: Int

        enum CodingKeys: String, CodingKey {
            case senders, repetitions, before
            case startsPerSecond = "starts_per_second", completionsPerSecond = "completions_per_second"
            case memoryMaps = "memory_maps", lockedKiB = "locked_kib", residentKiB = "resident_kib"
            case lockedBytesPerSender = "locked_bytes_per_sender"
        }
    }

    /// A start was refused its arena before `senders` senders were pending.
    struct Refusal: Codable, Equatable {
        let senders: Int
        /// Senders pending (started and not yet completed) when a start was refused.
        let pendingWhenRefused: Int
        /// Why the system refused the arena (`lockLimitReached`, `mappingLimitReached`, ...).
        let reason: String
        /// Memory the process had locked then, KiB (VmLck).
        let lockedKiB: Int

        enum CodingKeys: String, CodingKey {
            case senders, reason
            case pendingWhenRefused = "pending_when_refused", lockedKiB = "locked_kib"
        }
    }

    /// Under a memory-lock limit that applies: as many senders as the limit lets start, then
    /// every one of them completed (each with its own receiver), with the first refused start.
    struct Admission: Codable, Equatable {
        /// Senders that started before the first refusal.
        let admitted: Int
        /// Of those, the ones whose session then completed (`completed.imported` on both sides).
        let completed: Int
        /// Why the next start was refused (`lockLimitReached`, ...).
        let refusedReason: String
        /// Admitted senders per MiB of the lock limit.
        let admittedPerMiB: Int
        /// Bytes a sender's arena asks for (the arena is whole pages).
        let senderArenaBytes: Int
        /// Memory the process had locked with every admitted sender pending, KiB (VmLck).
        let lockedKiB: Int

        enum CodingKeys: String, CodingKey {
            case admitted, completed
            case refusedReason = "refused_reason", admittedPerMiB = "admitted_per_mib"
            case senderArenaBytes = "sender_arena_bytes", lockedKiB = "locked_kib"
        }
    }

    /// Starts senders until a start is refused, then completes every one that started. The
    /// receivers run in this process too (on real devices they live elsewhere), one at a time:
    /// a receiver's arena is taken first and let go before the completions, so that the
    /// receivers do not compete with the senders. Nil when `lockLimit` does not apply.
    static func admission(session: ReferenceSession, lockLimit: LockLimit) throws(BenchFailure) -> Admission? {
        guard lockLimit.applies, let limitKiB = lockLimit.kib, limitKiB > 0 else { return nil }
        let random = SystemRandomSource()
        let now = Date()
        let receiverRoom = try? SessionArena(byteCount: HandoffReceiver.arenaByteCount)
        var pending: [HandoffSender] = []
        var refusedReason = ""
        while refusedReason.isEmpty {
            do {
                pending.append(try session.start(random: random, now: now))
            } catch {
                guard case .refused(let refused) = error, let reason = refused.secureMemoryFailure else { throw BenchFailure(error) }
                refusedReason = reason.caseName
            }
        }
        let admitted = pending.count
        let lockedKiB = ProcessProbe.now().lockedKiB
        receiverRoom?.end()
        var completed = 0
        while let sender = pending.popLast() {
            guard (try? session.complete(sender, random: random, now: now)) != nil else { break }
            completed += 1
        }
        return Admission(admitted: admitted, completed: completed, refusedReason: refusedReason,
                         admittedPerMiB: admitted * 1024 / limitKiB, senderArenaBytes: HandoffSender.arenaByteCount,
                         lockedKiB: lockedKiB)
    }

    func run() throws(BenchFailure) -> Outcome {
        let random = SystemRandomSource()
        let now = Date()
        let before = ProcessProbe.now()
        // Wiped pages the process keeps locked for reuse (Spec 8.5) are no sender's.
        let pageKiB = Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
        let keptBefore = GuardedPages.keptRegionCount
        var starts: [Double] = [], completions: [Double] = [], probes: [ProcessProbe] = [], keptKiB: [Int] = []
        for _ in 0..<repetitions {
            var pending: [HandoffSender] = []
            pending.reserveCapacity(senders)
            let startSeconds: Double
            do {
                startSeconds = try Stopwatch.seconds { () throws(ReferenceSession.Failure) in
                    for _ in 0..<senders { pending.append(try session.start(random: random, now: now)) }
                }
            } catch {
                return .refused(try refusal(error, pending: pending.count))
            }
            probes.append(.now())
            keptKiB.append(GuardedPages.keptRegionCount * pageKiB)
            let completeSeconds: Double
            do {
                completeSeconds = try Stopwatch.seconds { () throws(ReferenceSession.Failure) in
                    while let sender = pending.popLast() { _ = try session.complete(sender, random: random, now: now) }
                }
            } catch {
                throw BenchFailure(error)  // a sender that started has its arena: nothing else can be refused
            }
            starts.append(Double(senders) / startSeconds)
            completions.append(Double(senders) / completeSeconds)
        }
        let lockedBySenders = zip(probes, keptKiB).map { $0.lockedKiB - $1 }.sorted()[probes.count / 2]
            - (before.lockedKiB - keptBefore * pageKiB)
        return .measured(Result(
            senders: senders, repetitions: repetitions,
            startsPerSecond: Spread(starts, decimals: 0), completionsPerSecond: Spread(completions, decimals: 0),
            before: before,
            memoryMaps: Spread(probes.map { Double($0.memoryMaps) }, decimals: 0),
            lockedKiB: Spread(probes.map { Double($0.lockedKiB) }, decimals: 0),
            residentKiB: Spread(probes.map { Double($0.residentKiB) }, decimals: 0),
            lockedBytesPerSender: lockedBySenders * 1024 / senders))
    }

    /// The refusal `failure` stands for when a start was refused its arena; any other failure
    /// stops the bench.
    private func refusal(_ failure: ReferenceSession.Failure, pending: Int) throws(BenchFailure) -> Refusal {
        guard case .refused(let refused) = failure, let reason = refused.secureMemoryFailure else { throw BenchFailure(failure) }
        return Refusal(senders: senders, pendingWhenRefused: pending, reason: reason.caseName, lockedKiB: ProcessProbe.now().lockedKiB)
    }
}
