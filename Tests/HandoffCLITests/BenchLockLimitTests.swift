#if os(Linux)
import Foundation
import Testing
import TestProcesses

/// `handoff-dev bench` under a memory-lock limit that applies (no `CAP_IPC_LOCK`): it measures
/// the pending-sender counts the limit holds, one arena each, and reports the others as refused
/// at their start, with how many were pending then, instead of failing; every sender that
/// started completes, as its arena holds everything its session needs (Spec 8.5). Never its
/// times.
@Suite(.startsProcesses, .serialized) struct BenchLockLimitTests {
    /// The limit of a non-root user on the development machine (`ulimit -l` 8192).
    static let eightMiB = 8 << 20

    @Test(.slowSlice) func underAnEightMiBLimitOneThousandAreMeasuredAndTheLimitsCountAllComplete() throws {
        let run = try BenchProcess.run(["bench", "--json", "--iterations", "2", "--repetitions", "1"], lockLimit: Self.eightMiB)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let lockLimit = try #require(report["lock_limit"] as? [String: Any])
        #expect(lockLimit["kib"] as? Int == 8_192)
        #expect(lockLimit["applies"] as? Bool == true, "the child kept CAP_IPC_LOCK, so the limit was not tested")

        let measured = try #require(report["pending_senders"] as? [[String: Any]])
        #expect(measured.map { $0["senders"] as? Int } == [1_000])
        let locked = try #require(measured.first?["locked_kib"] as? [String: Double])
        #expect(locked["max"].map { $0 <= 8_192 } == true, "\(locked)")
        #expect((report["pending_senders_refused"] as? [Any])?.isEmpty == true)

        // As many as the limit holds, one page each, and every one of them completes.
        let admission = try #require((report["pending_senders_admission"] as? [[String: Any]])?.first)
        #expect(Set(admission.keys) == BenchCommandTests.admissionKeys)
        let admitted = try #require(admission["admitted"] as? Int)
        #expect(admitted > 1_500 && admitted < 2_048, "\(admitted)")
        #expect(admission["completed"] as? Int == admitted)
        #expect(admission["refused_reason"] as? String == "lockLimitReached")
        #expect(admission["admitted_per_mib"] as? Int == admitted / 8)
        #expect(admission["sender_arena_bytes"] as? Int == 32 + 32 + 32 + 4 * 32 + 1_022 + 1_024)
    }

    /// Under 1 MiB not even 1,000 senders fit: a start is refused (never a completion), and
    /// every sender that started completes.
    @Test(.slowSlice) func underOneMiBTheStartsAreRefusedAndEveryStartedSenderCompletes() throws {
        let run = try BenchProcess.run(["bench", "--json", "--iterations", "1", "--repetitions", "1"], lockLimit: 1 << 20)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let refused = try #require((report["pending_senders_refused"] as? [[String: Any]])?.first)
        #expect(Set(refused.keys) == BenchCommandTests.refusedKeys)
        #expect(refused["senders"] as? Int == 1_000 && refused["reason"] as? String == "lockLimitReached")
        let pending = try #require(refused["pending_when_refused"] as? Int)
        #expect(pending > 100 && pending <= 256, "\(pending)")
        let admission = try #require((report["pending_senders_admission"] as? [[String: Any]])?.first)
        let admitted = try #require(admission["admitted"] as? Int)
        #expect(admitted > 100 && admitted <= 256, "\(admitted)")
        #expect(admission["completed"] as? Int == admitted)
        #expect(admission["admitted_per_mib"] as? Int == admitted)
    }

    /// The table says which limit applied, which count it refused and how many it admitted.
    @Test(.slowSlice) func theTableNamesTheLimitTheRefusedCountAndTheAdmitted() throws {
        let run = try BenchProcess.run(["bench", "--iterations", "1", "--repetitions", "1"], lockLimit: 2 << 20)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\n  lock limit (RLIMIT_MEMLOCK): 2,048 KiB, applies to this process\n"), "\(run.stdout)")
        let row = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("  1,000 pending senders ") })
        #expect(row.contains("refused  lockLimitReached with "), "\(row)")
        #expect(row.contains(" pending, "), "\(row)")
        let admitted = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("  pending senders the lock limit admits ") })
        #expect(admitted.contains(" per MiB, each arena asking 2,270 bytes; the next start refused (lockLimitReached)"), "\(admitted)")
        #expect(run.stdout.contains("\n    of those completed"))
    }
}
#endif
