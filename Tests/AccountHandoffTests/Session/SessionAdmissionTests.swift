#if os(Linux)
import Foundation
import Glibc
import Testing
@testable import AccountHandoff
import AccountHandoffBench
import AccountHandoffTestSupport

/// A session that starts can finish (Spec 8.5): under a memory-lock limit, as many senders
/// start as their reservations fit, the next start throws exactly
/// `secureMemoryUnavailable(lockLimitReached)` with nothing pending, and then every admitted
/// session completes. Each limit runs in a child process that lowers its limit and, as root,
/// becomes `nobody` (root's `CAP_IPC_LOCK` would lock past any limit).
@Suite struct SessionAdmissionTests {
    private static let slab = 64 * 1024

    @Test(arguments: [64 << 10, 1 << 20, 8 << 20])
    func everyAdmittedSenderCompletesAndTheNextStartIsRefused(lockLimit: Int) async {
        await Self.check(lockLimit: lockLimit)
    }

    /// The same over more limits, up to the 8 MiB hard limit a process without
    /// `CAP_SYS_RESOURCE` may have (about 5,000 sessions). From 256 KiB: below it, the receivers
    /// this process plays (four slabs, one of them for the longest offer) do not fit next to a
    /// sender (three slabs).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HANDOFF_SLOW_TESTS"] != nil, "set HANDOFF_SLOW_TESTS=1"),
          arguments: [256 << 10, 320 << 10, 512 << 10, 2 << 20, 4 << 20, 6 << 20])
    func aSweepOfLockLimitsAdmitsWhatFitsAndCompletesIt(lockLimit: Int) async {
        await Self.check(lockLimit: lockLimit)
    }

    private static func check(lockLimit: Int) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { [lockLimit] in
            AdmissionProbe.run(lockLimit: lockLimit)
        }
        guard let result else { return }
        let report = ChildReport(parsing: result.standardOutputContent)
        print("admission under a \(lockLimit / 1024) KiB lock limit:", report.values.sorted(by: { $0.key < $1.key }))
        #expect(report["limitSet"] == "true", "the hard lock limit is below \(lockLimit) bytes")
        #expect(report["privileged"] == "false")
        #expect(report["refusal"] == "secureMemoryUnavailable(lockLimitReached)")
        let admitted = report.integer("admitted")
        #expect(report.integer("completed") == admitted)
        #expect(report["completionFailure"] == "none")
        // The refused start left nothing pending: only the admitted senders (and the receivers'
        // room) held reservations then, and none is left at the end.
        #expect(report.integer("openReservationsAfterRefusal") == admitted + (report["receiverRoom"] == "reserved" ? 1 : 0))
        #expect(report.integer("openReservationsAtEnd") == 0 && report.integer("liveSlotsAtEnd") == 0)
        // Exactly as many as whole slabs for the reservations fit under the limit.
        let budget = (lockLimit - report.integer("lockedBeforeBytes")) / slab
        #expect(admitted == admissible(slabs: budget, receiverRoom: report["receiverRoom"] == "reserved"))
        #expect(report.integer("poolSlabsWithEveryoneAdmitted") <= budget)
        if lockLimit == 64 << 10 {
            #expect(admitted == 0)  // one sender needs slabs of three size classes
        } else {
            #expect(admitted > 0)
        }
    }

    /// The most senders whose reservations, with the receivers' room, fit in `slabs` slabs.
    private static func admissible(slabs: Int, receiverRoom: Bool) -> Int {
        func slabsNeeded(_ senders: Int) -> Int {
            SlotLayout.all.indices.reduce(0) { total, index in
                let slots = senders * SessionMemory.sender.slotsPerSizeClass[index]
                    + (receiverRoom ? SessionMemory.receiver.slotsPerSizeClass[index] : 0)
                let perSlab = SlotLayout.all[index].slotsPerSlab
                return total + (slots + perSlab - 1) / perSlab
            }
        }
        var senders = 0
        while slabsNeeded(senders + 1) <= slabs { senders += 1 }
        return senders
    }
}

/// Runs in a child process: lowers the lock limit (becoming `nobody` as root), sets a
/// receiver's reservation aside for the receivers this process plays, starts senders until one
/// is refused, then completes every one of them.
enum AdmissionProbe {
    static func run(lockLimit: Int) {
        var report = ChildReport()
        var limit = rlimit(rlim_cur: rlim_t(lockLimit), rlim_max: rlim_t(lockLimit))
        guard setrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit) == 0 else {
            report["limitSet"] = "false"
            return report.print()
        }
        report["limitSet"] = "true"
        if geteuid() == 0 {
            precondition(setgroups(0, nil) == 0 && setgid(65534) == 0 && setuid(65534) == 0, "cannot become nobody")
        }
        let status = String(decoding: ProcFile.read("/proc/thread-self/status"), as: UTF8.self)
        report["privileged"] = status.contains("CapEff:\t0000000000000000") ? "false" : "true"
        report["lockedBeforeBytes"] = "\(ProcFile.statusBytes("VmLck"))"

        let session = ReferenceSession(account: Fixtures.account, rendezvous: Fixtures.rendezvous, password: Fixtures.password)
        let random = InsecureDeterministicRandom(seed: 5)
        // On real devices the receivers live elsewhere; here they take turns in this process.
        let receiverRoom = try? GuardedAllocator.reserve(SessionMemory.receiver)
        report["receiverRoom"] = receiverRoom == nil ? "refused" : "reserved"
        var senders: [HandoffSender] = []
        while true {
            do {
                senders.append(try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                                       random: random, now: Fixtures.start))
            } catch {
                report["refusal"] = describe(error)
                break
            }
        }
        let statistics = GuardedAllocator.statistics
        report["admitted"] = "\(senders.count)"
        report["openReservationsAfterRefusal"] = "\(statistics.openReservations)"
        report["poolSlabsWithEveryoneAdmitted"] = "\(statistics.slabs)"
        report["poolLockedBytes"] = "\(statistics.lockedBytes)"
        receiverRoom?.end()
        var completed = 0
        report["completionFailure"] = "none"
        while let sender = senders.popLast() {
            do {
                _ = try session.complete(sender, random: random, now: Fixtures.start)
                completed += 1
            } catch {
                report["completionFailure"] = "\(error)"
                break
            }
        }
        report["completed"] = "\(completed)"
        report["openReservationsAtEnd"] = "\(GuardedAllocator.statistics.openReservations)"
        report["liveSlotsAtEnd"] = "\(GuardedAllocator.statistics.liveSlots)"
        report.print()
    }

    static func describe(_ error: HandoffError) -> String {
        guard case .secureMemoryUnavailable(let failure) = error.kind else { return error.identifier }
        return "secureMemoryUnavailable(\(LockLimitProbe.caseName(failure)))"
    }
}
#endif
