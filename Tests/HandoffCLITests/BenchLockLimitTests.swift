#if os(Linux)
import Foundation
import Testing
import TestProcesses

/// `handoff bench` under a memory-lock limit that applies (no `CAP_IPC_LOCK`): it measures the
/// pending-sender counts the limit admits and reports the others as refused by the pool, with
/// how many were pending then, instead of failing; every admitted sender completes, as
/// admission reserved at its start all its session needs (Spec 8.5). Never its times.
@Suite(.startsProcesses, .serialized) struct BenchLockLimitTests {
    /// The limit of a non-root user on the development machine (`ulimit -l` 8192).
    static let eightMiB = 8 << 20

    @Test func underAnEightMiBLimitOneThousandAreMeasuredAndOneHundredThousandRefused() throws {
        let run = try BenchProcess.run(["bench", "--json", "--iterations", "2", "--repetitions", "1"], lockLimit: Self.eightMiB)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let lockLimit = try #require(report["lock_limit"] as? [String: Any])
        #expect(lockLimit["kib"] as? Int == 8_192)
        #expect(lockLimit["applies"] as? Bool == true, "the child kept CAP_IPC_LOCK, so the limit was not tested")
        #expect(report["pending_senders_skipped"] as? [Int] == [])

        let measured = try #require(report["pending_senders"] as? [[String: Any]])
        #expect(measured.map { $0["senders"] as? Int } == [1_000])
        let locked = try #require(measured.first?["locked_kib"] as? [String: Double])
        #expect(locked["max"].map { $0 <= 8_192 } == true, "\(locked)")

        let refused = try #require(report["pending_senders_refused"] as? [[String: Any]])
        #expect(refused.count == 1)
        let refusal = try #require(refused.first)
        #expect(Set(refusal.keys) == BenchCommandTests.refusedKeys)
        #expect(refusal["senders"] as? Int == 100_000)
        #expect(refusal["reason"] as? String == "lockLimitReached")
        #expect(refusal["refused_while"] as? String == "starting")
        let pending = try #require(refusal["pending_when_refused"] as? Int)
        #expect(pending > 1_000 && pending < 100_000, "\(pending)")
        // The pool filled the limit up to less than one 64 KiB slab, less what else was locked.
        let poolKiB = try #require(refusal["guarded_locked_kib"] as? Int)
        #expect(poolKiB <= 8_192 && poolKiB > 8_192 - 1_024, "\(poolKiB)")

        // As many as admission lets start, and every one of them completes.
        let admission = try #require((report["pending_senders_admission"] as? [[String: Any]])?.first)
        #expect(Set(admission.keys) == BenchCommandTests.admissionKeys)
        let admitted = try #require(admission["admitted"] as? Int)
        #expect(admitted > 1_000 && admitted < 8 * 1_024, "\(admitted)")
        #expect(admission["completed"] as? Int == admitted)
        #expect(admission["refused_reason"] as? String == "lockLimitReached")
        #expect(admission["admitted_per_mib"] as? Int == admitted / 8)
        #expect(admission["sender_reservation_bytes"] as? Int == 13 * 48 + 80 + 2 * 1_040)
    }

    /// Under 1 MiB not even 1,000 senders fit: the pool refuses a start (never a completion),
    /// and the admission run completes every sender it admitted.
    @Test func underOneMiBTheStartsAreRefusedAndEveryAdmittedSenderCompletes() throws {
        let run = try BenchProcess.run(["bench", "--quick", "--json", "--iterations", "1", "--repetitions", "1"],
                                       lockLimit: 1 << 20)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let refused = try #require((report["pending_senders_refused"] as? [[String: Any]])?.first)
        #expect(refused["senders"] as? Int == 1_000 && refused["refused_while"] as? String == "starting")
        #expect(refused["reason"] as? String == "lockLimitReached")
        let admission = try #require((report["pending_senders_admission"] as? [[String: Any]])?.first)
        let admitted = try #require(admission["admitted"] as? Int)
        #expect(admitted > 0 && admitted < 1_000, "\(admitted)")
        #expect(admission["completed"] as? Int == admitted)
        #expect(admission["admitted_per_mib"] as? Int == admitted)
    }

    /// The table says which limit applied, which count it refused and what admission admitted.
    @Test func theTableNamesTheLimitTheRefusedCountAndTheAdmitted() throws {
        let run = try BenchProcess.run(["bench", "--iterations", "1", "--repetitions", "1"], lockLimit: 4 << 20)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\n  lock limit (RLIMIT_MEMLOCK): 4,096 KiB, applies to this process\n"), "\(run.stdout)")
        #expect(run.stdout.contains("1,000 pending senders (1 repetitions)"))
        let row = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("  100,000 pending senders ") })
        #expect(row.contains("refused  lockLimitReached with "), "\(row)")
        #expect(row.contains(" pending (starting), the pool holding "), "\(row)")
        let admitted = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("  pending senders the lock limit admits ") })
        #expect(admitted.contains(" per MiB, each reserving 2,784 bytes; the next start refused (lockLimitReached)"), "\(admitted)")
        #expect(run.stdout.contains("\n    of those completed"))
    }
}
#endif
