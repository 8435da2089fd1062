import CSodium
import Foundation
import Testing
@testable import AccountHandoff

#if canImport(Glibc)
import Glibc
#endif

/// Measures allocate + release pairs: libsodium's `sodium_malloc`/`sodium_free` (what
/// `SecretBytes` used before the pool) against the pool, on 1 and 2 threads. Prints numbers and
/// asserts none of them. Off unless `HANDOFF_SECURE_MEMORY_BENCH=1`; run it in release:
///
///     HANDOFF_SECURE_MEMORY_BENCH=1 swift test -c release --filter SecureMemoryBenchmark
///
/// `HANDOFF_SECURE_MEMORY_BENCH_ONLY=sodium|pool|secretbytes` runs one loop alone (any other
/// value: none, for the process's own system calls), and `HANDOFF_SECURE_MEMORY_BENCH_ROUNDS=n`
/// sets the rounds (default 7), so that `strace -c -f` can count the system calls of a known
/// number of pairs: 1,000 warm-up pairs plus 3 per round times the pairs of a round.
@Suite(.serialized, .enabled(if: BenchmarkSwitch.isOn, "set HANDOFF_SECURE_MEMORY_BENCH=1"))
struct SecureMemoryBenchmark {
    private static var only: String? { ProcessInfo.processInfo.environment["HANDOFF_SECURE_MEMORY_BENCH_ONLY"] }
    private static var rounds: Int {
        ProcessInfo.processInfo.environment["HANDOFF_SECURE_MEMORY_BENCH_ROUNDS"].flatMap { Int($0) } ?? 7
    }

    /// One allocate + release pair of `count` bytes, `pairs` times, with `live` secrets kept
    /// alive around it (as pending sessions would).
    private enum Allocator: String, CaseIterable {
        case sodium, pool, secretbytes

        func run(pairs: Int, count: Int, pool: SecureMemoryPool) {
            switch self {
            case .sodium:
                for _ in 0..<pairs {
                    let pointer = sodium_malloc(count)!
                    pointer.storeBytes(of: 1, as: UInt8.self)
                    sodium_free(pointer)
                }
            case .pool:
                for _ in 0..<pairs {
                    let pointer = try! pool.allocate(count)
                    pointer.storeBytes(of: 1, as: UInt8.self)
                    pool.release(pointer, count: count)
                }
            case .secretbytes:
                for _ in 0..<pairs {
                    let secret = try! SecretBytes(zeroedCount: count)
                    secret.withUnsafeMutableBytes { $0[0] = 1 }
                }
            }
        }

        /// Pairs per round: enough for a few tens of milliseconds.
        var pairs: Int { self == .sodium ? 5_000 : 400_000 }
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    @Test func allocateReleasePairs() throws {
        Sodium.ensureInitialised()  // sodium_malloc needs sodium_init's page size and canary
        let pool = GuardedAllocator.pool  // SecretBytes uses it too
        let sharedPool = SecureMemoryPool()
        for allocator in Allocator.allCases where Self.only == nil || Self.only == allocator.rawValue {
            let thePool = allocator == .pool ? sharedPool : pool
            let pairs = allocator.pairs
            allocator.run(pairs: 1000, count: 32, pool: thePool)  // warm up: slabs mapped, code paged in
            let before = thePool.statistics
            var single: [Double] = []
            var double: [Double] = []
            for _ in 0..<Self.rounds {
                let start = ContinuousClock.now
                allocator.run(pairs: pairs, count: 32, pool: thePool)
                single.append(Double(pairs) / Self.seconds(ContinuousClock.now - start))

                let twoStart = ContinuousClock.now
                DispatchQueue.concurrentPerform(iterations: 2) { _ in allocator.run(pairs: pairs, count: 32, pool: thePool) }
                double.append(Double(2 * pairs) / Self.seconds(ContinuousClock.now - twoStart))
            }
            let after = thePool.statistics
            // Every allocation of the runs was released: the benchmark's own pool holds nothing
            // (the process's pool is shared with whatever else runs).
            if allocator == .pool {
                #expect(after.liveSlots == 0 && after.liveLargeAllocations == 0, "\(after.liveSlots) slots left live")
            }
            let totalPairs = Self.rounds * 3 * pairs
            let calls = allocator == .sodium
                ? "n/a (strace)" : String(format: "%.5f", Double(after.systemCalls - before.systemCalls) / Double(totalPairs))
            print(String(
                format: "bench %@ 32 B: 1 thread %.0f pairs/s (%.3f us/pair, min %.0f max %.0f); 2 threads %.0f pairs/s in total (min %.0f max %.0f); pool system calls per pair %@; %d pairs run",
                allocator.rawValue, Self.median(single), 1e6 / Self.median(single), single.min()!, single.max()!,
                Self.median(double), double.min()!, double.max()!, calls, totalPairs + 1000))
        }
    }

    #if os(Linux)
    /// 500,000 live secrets of 32 and of 64 bytes (100,000 pending senders with 10 secrets each).
    @Test func oneMillionLiveSecrets() async {
        guard Self.only == nil else { return }
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            ScaleProbe.run(secretsPerSize: 500_000)
        }
        if let result {
            print("bench 1,000,000 live secrets:",
                  ChildReport(parsing: result.standardOutputContent).values.sorted(by: { $0.key < $1.key }))
        }
    }

    /// What `sodium_malloc` does at an unprivileged 8 MiB lock limit: it keeps reporting
    /// success after `mlock` fails (the "before" of the lock-limit test).
    @Test func sodiumMallocAtTheLockLimit() async {
        guard Self.only == nil else { return }
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            var limit = rlimit(rlim_cur: 8 << 20, rlim_max: 8 << 20)
            precondition(setrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit) == 0)
            if geteuid() == 0 { precondition(setgroups(0, nil) == 0 && setgid(65534) == 0 && setuid(65534) == 0) }
            Sodium.ensureInitialised()
            var report = ChildReport()
            var pointers: [UnsafeMutableRawPointer] = []
            for _ in 0..<4000 { pointers.append(sodium_malloc(32)!) }
            report["sodiumMallocSucceeded"] = "\(pointers.count)"
            report["lockedBytes"] = "\(ProcFile.statusBytes("VmLck"))"
            let map = ProcessMemoryMap()
            let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
            let unlocked = pointers.filter { pointer in
                let page = UInt(bitPattern: pointer) & ~(page - 1)
                return (map.mapping(containing: page)?.lockedBytes ?? 0) == 0
            }
            report["unlockedSecrets"] = "\(unlocked.count)"
            report["mappings"] = "\(map.mappings.count)"
            report.print()
        }
        if let result {
            print("bench sodium_malloc at an 8 MiB lock limit, 4,000 secrets of 32 B:",
                  ChildReport(parsing: result.standardOutputContent).values.sorted(by: { $0.key < $1.key }))
        }
    }
    #endif
}

/// Whether the benchmark runs (it is off in the normal test run).
enum BenchmarkSwitch {
    static var isOn: Bool { ProcessInfo.processInfo.environment["HANDOFF_SECURE_MEMORY_BENCH"] == "1" }
}
