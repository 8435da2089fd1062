#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// The package's one file lock: exclusion inside one process as between two, and a wait
/// that sleeps until the holder lets go, ends at its deadline, or ends when cancelled.
@Suite struct FileLockTests {
    /// The suite's waits run on a pool of their own: a wait holds its thread for as long as it
    /// waits, and the shared pool's 4 threads serve every other suite running at once (under
    /// load they were all busy for over a minute, so a wait here never started).
    static let waits = BlockingIOPool(threadCount: 4, name: "FileLockTests.waits")  // one per test that waits

    static func open(_ path: String) async throws -> FileLock {
        try await blocking { try FileLock.open(path) }
    }

    /// `waiter` waits for the lock on ``waits``.
    static func wait(_ waiter: FileLock, _ mode: FileLock.Mode, atMost timeout: Duration) async throws -> FileLock.Wait {
        try await waits.run { _ in try waiter.lock(mode, waitingAtMost: timeout) }
    }

    @Test func anExclusiveLockExcludesEveryOtherHolder() async throws {
        let directory = try RegistryTests.Directory()
        let path = directory.path("lock")
        let first = try await Self.open(path)
        let second = try await Self.open(path)
        #expect(try await blocking { try first.tryLock(.exclusive) })
        #expect(try await blocking { try second.tryLock(.shared) } == false)
        #expect(try await blocking { try second.tryLock(.exclusive) } == false)
        first.unlockAndClose()
        #expect(try await blocking { try second.tryLock(.exclusive) })
        second.unlockAndClose()
        second.unlockAndClose()  // idempotent
    }

    @Test func sharedLocksShareAndExcludeAnExclusiveOne() async throws {
        let directory = try RegistryTests.Directory()
        let path = directory.path("lock")
        let (one, two, three) = (try await Self.open(path), try await Self.open(path), try await Self.open(path))
        #expect(try await blocking { try one.tryLock(.shared) })
        #expect(try await blocking { try two.tryLock(.shared) })
        #expect(try await blocking { try three.tryLock(.exclusive) } == false)
    }

    @Test func aLinkOrAFolderIsNoLockFile() async throws {
        let directory = try RegistryTests.Directory()
        try FileManager.default.createSymbolicLink(atPath: directory.path("link"), withDestinationPath: directory.path("target"))
        try FileManager.default.createDirectory(atPath: directory.path("folder"), withIntermediateDirectories: false)
        #expect(mkfifo(directory.path("fifo"), 0o600) == 0)
        await #expect(throws: FileLock.Failure.symbolicLink) { try await Self.open(directory.path("link")) }
        await #expect(throws: FileLock.Failure.notARegularFile) { try await Self.open(directory.path("fifo")) }
        await #expect(throws: FileLock.Failure.system(.open, errno: EISDIR)) { try await Self.open(directory.path("folder")) }
        #expect(!FileManager.default.fileExists(atPath: directory.path("target")))
    }

    /// A waiter sleeps until the holder lets go (the holder's close wakes it), then holds the
    /// lock. It never polls: it tried once before it watched the file, once after, and once
    /// more when the release woke it.
    @Test func aWaitSleepsUntilTheHolderLetsGo() async throws {
        let directory = try RegistryTests.Directory()
        let path = directory.path("lock")
        let holder = try await Self.open(path)
        #expect(try await blocking { try holder.tryLock(.exclusive) })
        let waiter = try await Self.open(path)
        let waiting = Task { try await Self.wait(waiter, .shared, atMost: .seconds(120)) }
        try await BlockingIOPoolTests.eventually { waiter.triesSoFar == 2 }  // watching now
        holder.unlockAndClose()
        #expect(try await waiting.value == .locked)
        #expect(waiter.triesSoFar == 3)
        waiter.unlockAndClose()
    }

    /// Nobody lets go: the wait ends at its deadline, without the lock.
    @Test func aWaitEndsAtItsDeadline() async throws {
        let directory = try RegistryTests.Directory()
        let path = directory.path("lock")
        let holder = try await Self.open(path)
        #expect(try await blocking { try holder.tryLock(.exclusive) })
        let waiter = try await Self.open(path)
        #expect(try await Self.wait(waiter, .exclusive, atMost: .milliseconds(200)) == .timedOut)
        #expect(try await blocking { try waiter.tryLock(.shared) } == false)
        holder.unlockAndClose()
    }

    /// Cancelling the task that waits ends the wait at once, without the lock.
    @Test func aCancelledWaitEndsWithoutTheLock() async throws {
        let directory = try RegistryTests.Directory()
        let path = directory.path("lock")
        let holder = try await Self.open(path)
        #expect(try await blocking { try holder.tryLock(.exclusive) })
        let waiter = try await Self.open(path)
        let waiting = Task { try await Self.wait(waiter, .exclusive, atMost: .seconds(600)) }
        waiting.cancel()
        #expect(try await waiting.value == .cancelled)
        holder.unlockAndClose()
        #expect(try await blocking { try waiter.tryLock(.exclusive) })
    }

    /// A holder in another process that is killed: the kernel lets go, and the waiter wakes.
    @Test func aKilledHolderInAnotherProcessWakesTheWaiter() async throws {
        let directory = try RegistryTests.Directory()
        let path = directory.path("registry")
        let holder = try ClaimProbe.holdLock(path: path, seconds: 3600)  // killed below
        let waiter = try await Self.open(path + ".lock")
        #expect(try await blocking { try waiter.tryLock(.exclusive) } == false)
        let waiting = Task { try await Self.wait(waiter, .exclusive, atMost: .seconds(120)) }
        try await BlockingIOPoolTests.eventually { waiter.triesSoFar == 3 }  // watching now
        kill(holder.processIdentifier, SIGKILL)
        #expect(try await waiting.value == .locked)
        holder.waitUntilExit()
        waiter.unlockAndClose()
    }
}
