#if os(Linux)
import Foundation
import Glibc
import Testing
@testable import AccountHandoff
import AccountHandoffBench
import AccountHandoffTestSupport

/// Spec 8.5: a start or a scan that cannot get its arena fails with a typed, secret-free error
/// before anything exists (no QR, no registration; a scan gives its claim back), and a session
/// that started finishes, whatever else is refused meanwhile. Each limit runs in a child
/// process that lowers its memory-lock limit and, as root, becomes `nobody` (root's
/// `CAP_IPC_LOCK` would lock past any limit).
@Suite struct GuardedMemoryLimitTests {
    @Test(arguments: [64 << 10, 1 << 20])
    func atTheLockLimitAStartIsRefusedAndEveryStartedSessionFinishes(lockLimit: Int) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { [lockLimit] in
            LockLimitProbe.run(lockLimit: lockLimit)
        }
        guard let result else { return }
        let report = ChildReport(parsing: result.standardOutputContent)
        print("under a \(lockLimit / 1024) KiB lock limit:", report.values.sorted(by: { $0.key < $1.key }))
        #expect(report["limitSet"] == "true", "the hard lock limit is below \(lockLimit) bytes")
        #expect(report["privileged"] == "false")
        #expect(report["startRefusal"] == "secureMemoryUnavailable(lockLimitReached)")
        // The refused start left nothing: nothing more locked or mapped (and it came before any
        // registration, which the registry replay vectors pin).
        #expect(report["lockedChangedByRefusal"] == "false" && report["mappingsChangedByRefusal"] == "false")
        // A scan refused its arena gives its claim back.
        #expect(report["scanRefusal"] == "secureMemoryUnavailable(lockLimitReached)")
        #expect(report["claimKept"] == "false")
        // As many as whole pages fit, and every one of them finishes.
        let admitted = report.integer("admitted")
        let pages = (lockLimit - report.integer("lockedBeforeBytes")) / GuardedRegion.pageSize
        #expect(admitted == pages - 1, "one page is the receivers' room")
        #expect(report.integer("completed") == admitted)
        #expect(report["completionFailure"] == "none")
        // Nothing stays locked but the few wiped pages kept for the next session (Spec 8.5).
        #expect(report.integer("keptRegions") <= 8)
        #expect(report.integer("lockedAtEndBytes") == report.integer("lockedBeforeBytes")
            + report.integer("keptRegions") * GuardedRegion.pageSize)
    }

    /// At the map-count limit (`vm.max_map_count`) an arena is refused with
    /// `mappingLimitReached`, and a little headroom is enough for one again.
    @Test func atTheMapCountLimitAnArenaIsRefusedWithMappingLimitReached() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            MapCountProbe.run()
        }
        guard let result else { return }
        let report = ChildReport(parsing: result.standardOutputContent)
        print("map-count limit:", report.values.sorted(by: { $0.key < $1.key }))
        #expect(report.integer("fillerMappings") > 60_000)
        #expect(report["refusal"] == "secureMemoryUnavailable(mappingLimitReached)")
        #expect(report["afterHeadroom"] == "taken")
    }
}

/// The case name of a refusal (its description is a sentence).
private func describe(_ error: HandoffError) -> String {
    guard case .secureMemoryUnavailable(let failure) = error.kind else { return error.identifier }
    return "secureMemoryUnavailable(\(failure.caseName))"
}

/// Runs in a child process: lowers the lock limit (becoming `nobody` as root), keeps a
/// receiver's arena aside for the receivers this process plays, starts senders until one is
/// refused, checks that refusal and a refused scan, then completes every sender.
private enum LockLimitProbe {
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
        // This thread's credentials: /proc/self shows the main thread, which dispatch_main has exited.
        let status = String(decoding: ProcFile.read("/proc/thread-self/status"), as: UTF8.self)
        report["privileged"] = status.contains("CapEff:\t0000000000000000") ? "false" : "true"
        let lockedBefore = ProcFile.statusBytes("VmLck")
        report["lockedBeforeBytes"] = "\(lockedBefore)"

        let session = ReferenceSession(account: Fixtures.account, rendezvous: Fixtures.rendezvous, password: Fixtures.password)
        let random = SystemRandomSource()
        // On real devices the receivers live elsewhere; here they take turns in this process.
        let receiverRoom = try? SessionArena(byteCount: HandoffReceiver.arenaByteCount)
        let registry = SenderRegistry.inMemory()
        var senders: [HandoffSender] = []
        while true {
            let locked = ProcFile.statusBytes("VmLck")
            let mappings = ProcFile.mappingCount
            do {
                senders.append(try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                                       random: random, now: Fixtures.start, registry: registry))
            } catch {
                report["startRefusal"] = describe(error)
                report["lockedChangedByRefusal"] = "\(ProcFile.statusBytes("VmLck") != locked)"
                report["mappingsChangedByRefusal"] = "\(ProcFile.mappingCount != mappings)"
                break
            }
        }
        report["admitted"] = "\(senders.count)"

        let claims = ReceiverRegistry.inMemory()
        let payload = senders[0].payload
        do {
            _ = try HandoffReceiver.scan(payload: payload, random: random, now: Fixtures.start, registry: claims)
            report["scanRefusal"] = "none"
        } catch {
            report["scanRefusal"] = describe(error)
        }
        report["claimKept"] = "\(claims.hasClaimed(payload.transferID))"

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
        report["lockedAtEndBytes"] = "\(ProcFile.statusBytes("VmLck"))"
        report["keptRegions"] = "\(GuardedPages.keptRegionCount)"
        report.print()
    }
}

/// Runs in a child process: fills the process's map count with one-page mappings, asks for an
/// arena, then frees a little headroom and asks again.
private enum MapCountProbe {
    static func run() {
        var report = ChildReport()
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var fillers: [UnsafeMutableRawPointer] = []
        // Alternate protections so that neighbouring fillers cannot merge into one mapping.
        var protection = PROT_READ
        while let filler = mmap(nil, page, protection, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            filler != UnsafeMutableRawPointer(bitPattern: -1)
        {
            fillers.append(filler)
            protection = protection == PROT_READ ? PROT_NONE : PROT_READ
        }
        report["fillerMappings"] = "\(fillers.count)"
        do {
            _ = try SessionArena(byteCount: HandoffSender.arenaByteCount)
            report["refusal"] = "none"
        } catch {
            report["refusal"] = describe(error)
        }
        for filler in fillers.suffix(64) { munmap(filler, page) }
        fillers.removeLast(64)
        do {
            _ = try SessionArena(byteCount: HandoffSender.arenaByteCount)
            report["afterHeadroom"] = "taken"
        } catch {
            report["afterHeadroom"] = describe(error)
        }
        for filler in fillers { munmap(filler, page) }
        report.print()
    }
}
#endif
