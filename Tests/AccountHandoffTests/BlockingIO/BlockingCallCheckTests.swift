#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestProcesses
@testable import AccountHandoff

/// The blocking-call check: a blocking call on a thread that runs a task is caught; on a pool
/// thread or a plain thread it is not.
@Suite(.startsProcesses) struct BlockingCallCheckTests {
    @Test func aBlockingCallOnATaskIsCaughtWithItsName() async {
        let caught = await BlockingCallCheck.collect {
            _ = BlockingCall.retryingInterrupted("fsync") { Int32(0) }
            _ = BlockingCall.run("sqlite3_step") { 0 }
        }
        #expect(caught == ["fsync", "sqlite3_step"])
    }

    @Test func aBlockingCallInAChildTaskIsCaughtToo() async {
        let caught = await BlockingCallCheck.collect {
            await Task { _ = BlockingCall.run("flock") { 0 } }.value
        }
        #expect(caught == ["flock"])
    }

    @Test func aBlockingCallOnThePoolIsNotCaught() async {
        let caught = await BlockingCallCheck.collect {
            await BlockingIOPool.shared.run { _ in _ = BlockingCall.run("fsync") { 0 } }
        }
        #expect(caught == [])
    }

    @Test func aBlockingCallOnAThreadThatRunsNoTaskIsNotCaught() async {
        let mayBlock = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread { continuation.resume(returning: BlockingCall.mayBlockHere) }.start()
        }
        #expect(mayBlock)
        #expect(!BlockingCall.mayBlockHere)
    }

    /// A real registry driven from a task: its file lock is caught, named.
    @Test func aRegistryWithAFileClaimedOnATaskIsCaught() async throws {
        let directory = try RegistryTests.Directory()
        let caught = await BlockingCallCheck.collect {
            _ = try? ReceiverRegistry(storage: FileRegistryStorage(path: directory.path("registry")))
        }
        #expect(caught.first == "open")
    }

    /// Without a witness the check stops the program (debug builds): the probe claims a QR
    /// in a registry file from a task, and dies naming the call.
    @Test func theCheckStopsAProgramThatBlocksATask() throws {
        #if DEBUG
        let directory = try RegistryTests.Directory()
        let payload = try RegistryRaceTests.payload()
        let probe = Process()
        probe.executableURL = try ClaimProbe.binary()
        probe.arguments = ["--from-task", directory.path("registry")]
        let input = Pipe()
        let errors = Pipe()
        probe.standardInput = input
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = errors
        try probe.run()
        try input.fileHandleForWriting.write(contentsOf: Data((payload.text + "\ngo\n").utf8))
        try input.fileHandleForWriting.close()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        #expect(probe.terminationReason == .uncaughtSignal)
        #expect(message.contains("blocks its thread, and this thread runs a Swift task"))
        #else
        #expect(Bool(true), "release builds skip the check")
        #endif
    }

    /// The one retry loop: again after EINTR, the first other result as it is.
    @Test func theRetryLoopRetriesOnlyInterruptions() async {
        let results = await BlockingIOPool.shared.run { _ in
            var calls = 0
            let interruptedTwice = BlockingCall.retryingInterrupted("read") { () -> Int in
                calls += 1
                guard calls > 2 else {
                    errno = EINTR
                    return -1
                }
                return 7
            }
            let failed = BlockingCall.retryingInterrupted("read") { () -> Int32 in
                errno = EBADF
                return -1
            }
            return (interruptedTwice, calls, failed, errno)
        }
        #expect(results.0 == 7 && results.1 == 3)
        #expect(results.2 == -1 && results.3 == EBADF)
    }
}
