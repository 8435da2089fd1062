import Foundation
import Testing
@testable import AccountHandoff

/// Memory corruption and misuse kill the process (in a child process here), with a message
/// that names the problem and holds no secret; guard pages really are inaccessible.
@Suite struct SecureMemoryTrapTests {
    /// Bytes written as the "secret" in the children; the trap message must not contain them.
    private static let secretHex = "c3c3c3c3"

    private static func expectTrap(_ result: ExitTest.Result?, saying message: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(standardError.contains(message), "stderr: \(standardError.prefix(600))", sourceLocation: sourceLocation)
        #expect(!standardError.lowercased().contains(secretHex), sourceLocation: sourceLocation)
    }

    /// Overwrites one canary byte with a value it cannot already have. A fixed value would
    /// equal the random canary's byte once in 256 runs, and the write would change nothing.
    static func flipByte(at address: UnsafeMutableRawPointer) {
        address.storeBytes(of: ~address.load(as: UInt8.self), as: UInt8.self)
    }

    // MARK: Canaries and the unused tail of a slot

    @Test func writingOneBytePastASlotTrapsOnRelease() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pool = SecureMemoryPool()
            let pointer = try pool.allocate(32)
            pointer.initializeMemory(as: UInt8.self, repeating: 0xC3, count: 32)
            SecureMemoryTrapTests.flipByte(at: pointer + 32)  // one byte into the canary word
            pool.release(pointer, count: 32)
        }
        Self.expectTrap(result, saying: "a canary around a released secret was overwritten")
    }

    @Test func writingOneByteBeforeASlotTrapsOnRelease() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pool = SecureMemoryPool()
            let pointer = try pool.allocate(64)
            SecureMemoryTrapTests.flipByte(at: pointer - 1)
            pool.release(pointer, count: 64)
        }
        Self.expectTrap(result, saying: "a canary around a released secret was overwritten")
    }

    @Test func overflowingIntoTheNextSlotTrapsWhenEitherIsReleased() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pool = SecureMemoryPool()
            let first = try pool.allocate(32)
            let second = try pool.allocate(32)
            let (low, high) = first < second ? (first, second) : (second, first)
            low.initializeMemory(as: UInt8.self, repeating: 0xC3, count: 48 + 8)  // over the word, into `high`
            pool.release(high, count: 32)  // the victim's own canary word was hit: caught here
        }
        Self.expectTrap(result, saying: "a canary around a released secret was overwritten")
    }

    @Test func writingPastTheRequestedLengthInsideTheSlotTrapsOnRelease() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pool = SecureMemoryPool()
            let pointer = try pool.allocate(20)  // a 32-byte slot
            pointer.initializeMemory(as: UInt8.self, repeating: 0xC3, count: 21)
            pool.release(pointer, count: 20)
        }
        Self.expectTrap(result, saying: "a canary around a released secret was overwritten")
    }

    @Test func writingBeforeALargeSecretTrapsOnRelease() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pool = SecureMemoryPool()
            let pointer = try pool.allocate(9000)
            SecureMemoryTrapTests.flipByte(at: pointer - 3)
            pool.release(pointer, count: 9000)
        }
        Self.expectTrap(result, saying: "a canary around a released secret was overwritten")
    }

    @Test func writingThroughAStalePointerTrapsWhenTheSlotIsReused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pool = SecureMemoryPool()
            let pointer = try pool.allocate(32)
            pool.release(pointer, count: 32)
            pointer.storeBytes(of: 0xC3, toByteOffset: 5, as: UInt8.self)
            _ = try pool.allocate(32)
        }
        Self.expectTrap(result, saying: "was written to after its release")
    }

    // MARK: Misuse

    @Test func releasingTwiceTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pool = SecureMemoryPool()
            let pointer = try pool.allocate(32)
            _ = try pool.allocate(32)  // keeps the slab mapped
            pool.release(pointer, count: 32)
            pool.release(pointer, count: 32)
        }
        Self.expectTrap(result, saying: "released a secret slot twice")
    }

    @Test func releasingWithAnotherSizeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pool = SecureMemoryPool()
            let pointer = try pool.allocate(32)
            pool.release(pointer, count: 64)
        }
        Self.expectTrap(result, saying: "with a size or address it was not allocated with")
    }

    @Test func releasingAPointerIntoASlotTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pool = SecureMemoryPool()
            let pointer = try pool.allocate(32)
            pool.release(pointer + 8, count: 16)
        }
        Self.expectTrap(result, saying: "with a size or address it was not allocated with")
    }

    @Test func releasingForeignMemoryTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pool = SecureMemoryPool()
            let foreign = UnsafeMutableRawPointer.allocate(byteCount: 32, alignment: 16)
            pool.release(foreign, count: 32)
        }
        Self.expectTrap(result, saying: "released a pointer that this pool did not allocate")
    }

    @Test func releasingForeignMemoryAsALargeSecretTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let pool = SecureMemoryPool()
            _ = try pool.allocate(9000)
            let foreign = UnsafeMutableRawPointer.allocate(byteCount: 9000, alignment: 16)
            pool.release(foreign, count: 9000)
        }
        Self.expectTrap(result, saying: "with a size or address it was not allocated with")
    }

    // MARK: Guard pages

    @Test func thePageBeforeASlabFaults() async {
        await #expect(processExitsWith: .signal(SIGSEGV)) {
            let pool = SecureMemoryPool()
            let pointer = try pool.allocate(32)
            let body = pool.guardedBody(containing: pointer)!
            UnsafeMutablePointer<UInt8>(bitPattern: body.lowerBound - 1)!.pointee = 0xC3
        }
    }

    @Test func thePageAfterASlabFaults() async {
        await #expect(processExitsWith: .signal(SIGSEGV)) {
            let pool = SecureMemoryPool()
            let pointer = try pool.allocate(4096)
            let body = pool.guardedBody(containing: pointer)!
            UnsafeMutablePointer<UInt8>(bitPattern: body.upperBound)!.pointee = 0xC3
        }
    }

    @Test func oneBytePastALargeSecretFaults() async {
        await #expect(processExitsWith: .signal(SIGSEGV)) {
            let pool = SecureMemoryPool()
            let pointer = try pool.allocate(8192)
            pointer.storeBytes(of: 0xC3, toByteOffset: 8192, as: UInt8.self)
        }
    }
}
