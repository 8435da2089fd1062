import Foundation
import Testing
@testable import AccountHandoff

/// The pool hands out guarded, locked, wiped slots, reuses them without system calls, and
/// fails closed at its cap; every test uses a pool of its own.
@Suite struct SecureMemoryPoolTests {
    private static let slab = 64 * 1024
    /// Slots per slab of the 32-byte class: a 16-byte canary word before every slot and after the last.
    private static let slotsOf32 = (slab - 16) / (32 + 16)

    private static func bytes(_ pointer: UnsafeMutableRawPointer, _ count: Int) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    @Test func aReleasedSlotIsWipedAndComesBackZeroed() throws {
        let pool = SecureMemoryPool()
        let first = try pool.allocate(64)
        #expect(Self.bytes(first, 64) == [UInt8](repeating: 0, count: 64))
        first.initializeMemory(as: UInt8.self, repeating: 0xA5, count: 64)
        pool.release(first, count: 64)
        // The slab stays mapped (one empty slab is kept), so the released slot can be read.
        #expect(Self.bytes(first, 64) == [UInt8](repeating: 0, count: 64))
        let second = try pool.allocate(64)
        #expect(second == first)
        #expect(Self.bytes(second, 64) == [UInt8](repeating: 0, count: 64))
        #expect(pool.statistics.allocationsFromExistingSlabs == 1)
        #expect(pool.statistics.mmapCalls == 1)
        pool.release(second, count: 64)
    }

    @Test func neighbouringSlotsAreSeparatedByACanaryWordAndAligned() throws {
        let pool = SecureMemoryPool()
        for (count, slot) in [(1, 32), (32, 32), (33, 64), (100, 128), (256, 256), (300, 512), (1000, 1024),
                              (2048, 2048), (4096, 4096)] {
            let first = try pool.allocate(count)
            let second = try pool.allocate(count)
            let (low, high) = (min(UInt(bitPattern: first), UInt(bitPattern: second)), max(UInt(bitPattern: first), UInt(bitPattern: second)))
            #expect(high - low == UInt(slot + 16), "count \(count)")
            #expect(UInt(bitPattern: first) % 16 == 0)
            #expect(pool.guardedBody(containing: first) == pool.guardedBody(containing: second))
            pool.release(first, count: count)
            pool.release(second, count: count)
        }
        // One slab per size class; the two 32-byte requests (1 and 32) shared one.
        #expect(pool.statistics.slabs == 8)
    }

    @Test func aFullSlabCostsSystemCallsOnceAndThenNone() throws {
        let pool = SecureMemoryPool()
        var pointers = [try pool.allocate(32)]
        let afterFirst = pool.statistics
        #expect(afterFirst.mmapCalls == 1 && afterFirst.mprotectCalls == 1 && afterFirst.mlockCalls == 1)
        #if os(Linux)
        #expect(afterFirst.madviseCalls == 1)
        #endif
        #expect(afterFirst.munmapCalls <= 2)  // trimming the alignment slack of the reservation
        for _ in 1..<Self.slotsOf32 { pointers.append(try pool.allocate(32)) }
        let afterSlab = pool.statistics
        #expect(afterSlab.systemCalls == afterFirst.systemCalls)
        #expect(afterSlab.allocationsFromExistingSlabs == Self.slotsOf32 - 1)
        #expect(afterSlab.slabs == 1 && afterSlab.liveSlots == Self.slotsOf32 && afterSlab.emptySlabs == 0)
        #expect(afterSlab.lockedBytes == Self.slab)
        #expect(afterSlab.mappedBytes == Self.slab + 2 * Int(sysconf(Int32(_SC_PAGESIZE))))
        pointers.append(try pool.allocate(32))  // the next slab
        #expect(pool.statistics.slabs == 2 && pool.statistics.mmapCalls == 2)
        for pointer in pointers { pool.release(pointer, count: 32) }
        #expect(pool.statistics.liveSlots == 0 && pool.statistics.releases == Self.slotsOf32 + 1)
    }

    @Test func theCapGivesCapReachedAndNothingMore() throws {
        let pool = SecureMemoryPool(configuration: .init(maximumLockedBytes: 2 * Self.slab, emptySlabsKeptPerSizeClass: 1))
        var pointers: [UnsafeMutableRawPointer] = []
        var failure: SecureMemoryFailure?
        while failure == nil {
            do { pointers.append(try pool.allocate(32)) } catch { failure = error }
        }
        #expect(failure == .capReached)
        #expect(pointers.count == 2 * Self.slotsOf32)
        #expect(pool.statistics.slabs == 2 && pool.statistics.lockedBytes == 2 * Self.slab)
        #expect(throws: SecureMemoryFailure.capReached) { try pool.allocate(64) }  // would need a new slab
        #expect(throws: SecureMemoryFailure.capReached) { try pool.allocate(5000) }
        #expect(throws: SecureMemoryFailure.capReached) { try pool.allocate(Int.max) }
        #expect(pool.statistics.mmapCalls == 2)  // the refusals touched no system call
        // A released slot is served again within the cap.
        pool.release(pointers.removeLast(), count: 32)
        pointers.append(try pool.allocate(32))
        for pointer in pointers { pool.release(pointer, count: 32) }
    }

    @Test func emptySlabsBeyondThePolicyAreUnmapped() throws {
        let pool = SecureMemoryPool(configuration: .init(maximumLockedBytes: 1 << 30, emptySlabsKeptPerSizeClass: 1))
        let pointers = try (0..<(3 * Self.slotsOf32)).map { _ in try pool.allocate(32) }
        #expect(pool.statistics.slabs == 3)
        let beforeRelease = pool.statistics
        for pointer in pointers { pool.release(pointer, count: 32) }
        let afterRelease = pool.statistics
        #expect(afterRelease.slabs == 1 && afterRelease.emptySlabs == 1)
        #expect(afterRelease.munmapCalls - beforeRelease.munmapCalls == 2)
        #expect(afterRelease.lockedBytes == Self.slab)
        // The kept slab serves the next secret without a system call.
        let again = try pool.allocate(32)
        #expect(pool.statistics.systemCalls == afterRelease.systemCalls)
        pool.release(again, count: 32)
        // Lowering the policy to zero unmaps the last empty slab at once.
        pool.reconfigure(.init(maximumLockedBytes: 1 << 30, emptySlabsKeptPerSizeClass: 0))
        #expect(pool.statistics.slabs == 0 && pool.statistics.emptySlabs == 0)
        #expect(pool.statistics.mappedBytes == 0 && pool.statistics.lockedBytes == 0)
        // With no empty slab kept, a slab is unmapped as soon as its last slot is released.
        let lone = try pool.allocate(128)
        pool.release(lone, count: 128)
        #expect(pool.statistics.slabs == 0 && pool.statistics.mappedBytes == 0)
    }

    @Test func aLargeSecretGetsItsOwnMappingEndingAtTheGuardPage() throws {
        let pool = SecureMemoryPool()
        let pointer = try pool.allocate(10_000)
        let body = try #require(pool.guardedBody(containing: pointer))
        #expect(UInt(bitPattern: pointer) % 16 == 0)
        #expect(UInt(bitPattern: pointer) + 10_000 == body.upperBound)  // one byte more faults
        #expect(pool.statistics.liveLargeAllocations == 1 && pool.statistics.slabs == 0)
        #expect(pool.statistics.lockedBytes == body.count)
        #expect(Self.bytes(pointer, 10_000).allSatisfy { $0 == 0 })
        #if os(Linux)
        #expect(ProcessMemoryMap().guardProblem(around: body) == nil)
        #endif
        pointer.initializeMemory(as: UInt8.self, repeating: 0x5A, count: 10_000)
        pool.release(pointer, count: 10_000)
        #expect(pool.statistics.liveLargeAllocations == 0)
        #expect(pool.statistics.mappedBytes == 0 && pool.statistics.lockedBytes == 0)
    }

    #if os(Linux)
    @Test func everySizeClassSitsInALockedNoDumpBodyBetweenGuardPages() throws {
        let pool = SecureMemoryPool()
        let counts = [1, 32, 64, 128, 256, 512, 1024, 2048, 4096, 4097, 70_000]
        let pointers = try counts.map { try pool.allocate($0) }
        let map = ProcessMemoryMap()
        for (pointer, count) in zip(pointers, counts) {
            let body = try #require(pool.guardedBody(containing: pointer))
            #expect(body.contains(UInt(bitPattern: pointer)) && UInt(bitPattern: pointer) + UInt(count) <= body.upperBound)
            #expect(map.guardProblem(around: body) == nil, "count \(count)")
        }
        for (pointer, count) in zip(pointers, counts) { pool.release(pointer, count: count) }
    }
    #endif

    @Test func twoThreadsNeverShareASlot() throws {
        let pool = SecureMemoryPool()
        let rounds = 20_000
        let failures = Mutexed(0)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            var live: [(UnsafeMutableRawPointer, Int, UInt8)] = []
            for round in 0..<rounds {
                let count = round % 2 == 0 ? 32 : 64
                guard let pointer = try? pool.allocate(count) else {
                    failures.update { $0 += 1 }
                    return
                }
                let mark = UInt8(truncatingIfNeeded: round &* 2 &+ thread) | 1
                pointer.initializeMemory(as: UInt8.self, repeating: mark, count: count)
                live.append((pointer, count, mark))
                if live.count > 64 {
                    let (old, oldCount, oldMark) = live.removeFirst()
                    if !UnsafeRawBufferPointer(start: old, count: oldCount).allSatisfy({ $0 == oldMark }) {
                        failures.update { $0 += 1 }
                    }
                    pool.release(old, count: oldCount)
                }
            }
            for (pointer, count, _) in live { pool.release(pointer, count: count) }
        }
        #expect(failures.value == 0)
        let statistics = pool.statistics
        #expect(statistics.allocations == 2 * rounds && statistics.releases == 2 * rounds)
        #expect(statistics.liveSlots == 0)
    }

    @Test func secretBytesLiveInTheProcessPool() throws {
        let small = try SecretBytes(copying: [UInt8](repeating: 7, count: 32))
        let large = try SecretBytes(zeroedCount: 5000)
        for secret in [small, large] {
            let address = try #require(secret.withUnsafeBytes { $0.baseAddress })
            let body = try #require(GuardedAllocator.pool.guardedBody(containing: address))
            #if os(Linux)
            #expect(ProcessMemoryMap().guardProblem(around: body) == nil)
            #else
            #expect(!body.isEmpty)
            #endif
        }
    }

    @Test func failuresExplainWhatToDoInWholeSentences() {
        let failures: [SecureMemoryFailure] = [
            .lockLimitReached, .mappingLimitReached, .mappingFailed(errno: 22), .protectionFailed(errno: 22),
            .lockFailed(errno: 22), .dumpExclusionFailed(errno: 22), .capReached,
        ]
        for failure in failures {
            #expect(failure.description.first!.isUppercase && failure.description.hasSuffix("."))
            #expect(failure.description.contains("then try again") || failure.description.contains("Try again"))
        }
        #expect(SecureMemoryFailure.lockLimitReached.description.contains("ulimit -l"))
        #expect(SecureMemoryFailure.mappingLimitReached.description.contains("vm.max_map_count"))
        #expect(Set(failures.map(\.description)).count == failures.count)
    }
}

/// A value shared by test threads.
final class Mutexed<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
