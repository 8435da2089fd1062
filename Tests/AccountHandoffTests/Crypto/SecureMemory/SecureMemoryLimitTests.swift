#if os(Linux)
import Foundation
import Glibc
import Testing
@testable import AccountHandoff

/// At the memory-lock limit of an unprivileged process the pool fails with exactly
/// `.lockLimitReached` and never hands out an unlocked slot; as root it holds 100,000 secrets
/// of each hot size, every one guarded and locked, in a few hundred mappings.
@Suite struct SecureMemoryLimitTests {
    private static let slab = 64 * 1024
    private static let lockLimit = 8 << 20

    @Test(arguments: [32, 64])
    func anUnprivilegedProcessGetsLockLimitReachedAndNothingUnlocked(secretLength: Int) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { [secretLength] in
            LockLimitProbe.run(secretLength: secretLength, lockLimit: 8 << 20)
        }
        guard let result else { return }
        let report = ChildReport(parsing: result.standardOutputContent)
        print("lock limit, \(secretLength)-byte secrets:", report.values.sorted(by: { $0.key < $1.key }))
        #expect(report["privileged"] == "false")
        #expect(report["failure"] == "lockLimitReached")
        #expect(report["largeFailure"] == "lockLimitReached")
        #expect(report["unguardedBodies"] == "0")
        #expect(report["failedCallLeftNothingMapped"] == "true")
        let slotsPerSlab = (Self.slab - 16) / (secretLength + 16)
        let slabs = (Self.lockLimit - report.integer("lockedBeforeBytes")) / Self.slab
        #expect(report.integer("slabs") == slabs)
        #expect(report.integer("secrets") == slabs * slotsPerSlab)
        #expect(report.integer("lockedBytes") == slabs * Self.slab)
    }

    @Test func atTheMapCountLimitAllocationsFailWithMappingLimitReached() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            MapCountProbe.run()
        }
        guard let result else { return }
        let report = ChildReport(parsing: result.standardOutputContent)
        print("map-count limit:", report.values.sorted(by: { $0.key < $1.key }))
        #expect(report.integer("fillerMappings") > 60_000)
        #expect(report["slotFailure"] == "mappingLimitReached")
        #expect(report["largeFailure"] == "mappingLimitReached")
        #expect(report["liveAfterFailures"] == "0")
        #expect(report["afterHeadroom"] == "allocated")
        #expect(report["unguardedBodies"] == "0")
    }

    @Test(.enabled(if: LockLimitProbe.canLock(bytes: 64 << 20), "needs root (CAP_IPC_LOCK) or a 64 MiB lock limit"))
    func oneHundredThousandSecretsOfEachHotSizeAreAllGuardedAndLocked() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            ScaleProbe.run(secretsPerSize: 100_000)
        }
        guard let result else { return }
        let report = ChildReport(parsing: result.standardOutputContent)
        print("100,000 secrets of 32 and of 64 bytes:", report.values.sorted(by: { $0.key < $1.key }))
        #expect(report.integer("secrets") == 200_000)
        #expect(report["failure"] == "none")
        #expect(report.integer("secretsOutsideGuardedBodies") == 0)
        #expect(report["unguardedBodies"] == "0")
        // 100,000 / 1,365 and 100,000 / 819 slots per slab.
        #expect(report.integer("slabs") == 74 + 123)
        #expect(report.integer("lockedBytes") == 197 * Self.slab)
        // Each slab adds at most its body and two guard pages as mappings (neighbouring guards may merge).
        #expect(report.integer("poolMappings") <= 3 * 197)
        #expect(report.integer("addedMappings") < report.integer("maxMapCount") / 50)
    }
}

/// Runs in a child process: lowers the lock limit, drops root's `CAP_IPC_LOCK` by becoming
/// `nobody`, then allocates secrets until the pool refuses, and reports what it saw.
enum LockLimitProbe {
    static func canLock(bytes: Int) -> Bool {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit)
        return geteuid() == 0 || limit.rlim_cur >= rlim_t(bytes)  // RLIM_INFINITY is the largest value
    }

    static func run(secretLength: Int, lockLimit: Int) {
        var limit = rlimit(rlim_cur: rlim_t(lockLimit), rlim_max: rlim_t(lockLimit))
        precondition(setrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit) == 0, "setrlimit")
        if geteuid() == 0 {
            precondition(setgroups(0, nil) == 0 && setgid(65534) == 0 && setuid(65534) == 0, "cannot become nobody")
        }
        var report = ChildReport()
        // This thread's credentials: /proc/self shows the main thread, which dispatch_main has exited.
        let status = String(decoding: ProcFile.read("/proc/thread-self/status"), as: UTF8.self)
        report["privileged"] = status.contains("CapEff:\t0000000000000000") ? "false" : "true"
        report["lockedBeforeBytes"] = "\(ProcFile.statusBytes("VmLck"))"

        // A cap above the lock limit, so that the loop ends even if the lock limit did not hold.
        let pool = SecureMemoryPool(configuration: .init(maximumLockedBytes: 2 * lockLimit, emptySlabsKeptPerSizeClass: 1))
        let slotsPerSlab = (64 * 1024 - 16) / (SlotLayout.sizeClasses.first { $0 >= secretLength }! + 16)
        var pointers: [UnsafeMutableRawPointer] = []
        while true {
            let needsSlab = pointers.count % slotsPerSlab == 0
            let before = needsSlab ? (pool.statistics, ProcFile.mappingCount) : nil
            do {
                pointers.append(try pool.allocate(secretLength))
            } catch {
                report["failure"] = "\(caseName(error))"
                if let (statistics, mappings) = before {
                    let after = pool.statistics
                    report["failedCallLeftNothingMapped"] = "\(after.slabs == statistics.slabs && after.mappedBytes == statistics.mappedBytes && after.lockedBytes == statistics.lockedBytes && ProcFile.mappingCount == mappings)"
                }
                break
            }
        }
        do {
            _ = try pool.allocate(100_000)
            report["largeFailure"] = "none"
        } catch {
            report["largeFailure"] = "\(caseName(error))"
        }
        let statistics = pool.statistics
        report["secrets"] = "\(pointers.count)"
        report["slabs"] = "\(statistics.slabs)"
        report["lockedBytes"] = "\(statistics.lockedBytes)"
        report["processLockedBytes"] = "\(ProcFile.statusBytes("VmLck"))"
        report["unguardedBodies"] = "\(ScaleProbe.unguardedBodies(pointers, in: pool))"
        report.print()
    }

    /// The case name of a failure (its description is a sentence).
    static func caseName(_ failure: SecureMemoryFailure) -> String {
        switch failure {
        case .lockLimitReached: "lockLimitReached"
        case .mappingLimitReached: "mappingLimitReached"
        case .capReached: "capReached"
        case .mappingFailed(let code): "mappingFailed(\(code))"
        case .protectionFailed(let code): "protectionFailed(\(code))"
        case .lockFailed(let code): "lockFailed(\(code))"
        case .dumpExclusionFailed(let code): "dumpExclusionFailed(\(code))"
        }
    }
}

/// Runs in a child process: fills the process's map count (`vm.max_map_count`) with
/// one-page mappings, asks the pool for secrets, then frees a little headroom and asks again.
enum MapCountProbe {
    static func run() {
        var report = ChildReport()
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pool = SecureMemoryPool()
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
            _ = try pool.allocate(32)
            report["slotFailure"] = "none"
        } catch {
            report["slotFailure"] = LockLimitProbe.caseName(error)
        }
        do {
            _ = try pool.allocate(50_000)
            report["largeFailure"] = "none"
        } catch {
            report["largeFailure"] = LockLimitProbe.caseName(error)
        }
        report["liveAfterFailures"] = "\(pool.statistics.liveSlots + pool.statistics.liveLargeAllocations)"
        for filler in fillers.suffix(64) { munmap(filler, page) }
        fillers.removeLast(64)
        var pointers: [UnsafeMutableRawPointer] = []
        do {
            pointers = [try pool.allocate(32), try pool.allocate(50_000)]
            report["afterHeadroom"] = "allocated"
        } catch {
            report["afterHeadroom"] = LockLimitProbe.caseName(error)
        }
        for filler in fillers { munmap(filler, page) }  // keeps the smaps check below quick
        report["unguardedBodies"] = "\(ScaleProbe.unguardedBodies(pointers, in: pool))"
        report.print()
    }
}

/// Runs in a child process: holds `secretsPerSize` live secrets of 32 and of 64 bytes and
/// reports memory, mappings and whether every one of them is guarded and locked.
enum ScaleProbe {
    static func run(secretsPerSize: Int) {
        var report = ChildReport()
        let mappingsBefore = ProcFile.mappingCount
        let residentBefore = ProcFile.statusBytes("VmRSS")
        let lockedBefore = ProcFile.statusBytes("VmLck")
        let pool = SecureMemoryPool()
        var pointers: [(UnsafeMutableRawPointer, Int)] = []
        pointers.reserveCapacity(2 * secretsPerSize)
        let start = ContinuousClock.now
        do {
            for _ in 0..<secretsPerSize {
                pointers.append((try pool.allocate(32), 32))
                pointers.append((try pool.allocate(64), 64))
            }
            report["failure"] = "none"
        } catch {
            report["failure"] = LockLimitProbe.caseName(error)
        }
        let elapsed = (ContinuousClock.now - start).components
        report["allocateMilliseconds"] = "\(elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000)"
        for (pointer, count) in pointers { pointer.initializeMemory(as: UInt8.self, repeating: 0x5C, count: count) }
        let statistics = pool.statistics
        report["secrets"] = "\(pointers.count)"
        report["slabs"] = "\(statistics.slabs)"
        report["mappedBytes"] = "\(statistics.mappedBytes)"
        report["lockedBytes"] = "\(statistics.lockedBytes)"
        report["systemCalls"] = "\(statistics.systemCalls)"
        report["addedMappings"] = "\(ProcFile.mappingCount - mappingsBefore)"
        report["addedResidentBytes"] = "\(ProcFile.statusBytes("VmRSS") - residentBefore)"
        report["addedProcessLockedBytes"] = "\(ProcFile.statusBytes("VmLck") - lockedBefore)"
        report["maxMapCount"] = String(decoding: ProcFile.read("/proc/sys/vm/max_map_count"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        report["poolMappings"] = "\(poolMappings(pointers.map(\.0), in: pool))"
        report["secretsOutsideGuardedBodies"] = "\(pointers.filter { pool.guardedBody(containing: $0.0) == nil }.count)"
        report["unguardedBodies"] = "\(unguardedBodies(pointers.map(\.0), in: pool))"
        report.print()
    }

    /// How many mappings of the process lie in (or overlap) the regions holding `pointers`.
    static func poolMappings(_ pointers: [UnsafeMutableRawPointer], in pool: SecureMemoryPool) -> Int {
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let regions = Set(pointers.compactMap { pool.guardedBody(containing: $0) })
            .map { $0.lowerBound - page ..< $0.upperBound + page }
        return ProcessMemoryMap().mappings.filter { mapping in regions.contains { $0.overlaps(mapping.range) } }.count
    }

    /// How many distinct slab bodies holding `pointers` fail the `/proc/self/smaps` check
    /// (exactly one locked, no-dump, read-write mapping with a `PROT_NONE` page on either side).
    static func unguardedBodies(_ pointers: [UnsafeMutableRawPointer], in pool: SecureMemoryPool) -> Int {
        let bodies = Set(pointers.compactMap { pool.guardedBody(containing: $0) })
        let map = ProcessMemoryMap()
        return bodies.filter { map.guardProblem(around: $0) != nil }.count
    }
}
#endif
