#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import Testing
import TestProcesses

/// Spec 6.3 across processes: receivers started at once on one registry file, each a real
/// process (`registry-claim-probe`) released at the same moment.
@Suite(.startsProcesses) struct RegistryRaceTests {
    /// Trials in `swift test`; the slow slice runs `slowTrials` more of each race.
    static let trials = 10
    static let slowTrials = 50

    /// Eight processes claim one QR at once: exactly one claim succeeds, in every trial.
    @Test func eightProcessesClaimingOneQRClaimItOnce() async throws {
        try await Self.claimOneQR(trials: Self.trials)
    }

    @Test(.slowSlice) func eightProcessesClaimingOneQRClaimItOnceFiftyTimes() async throws {
        try await Self.claimOneQR(trials: Self.slowTrials)
    }

    static func claimOneQR(trials: Int) async throws {
        let directory = try RegistryTests.Directory()
        var tally: [String: Int] = [:]
        for trial in 0..<trials {
            let path = directory.path("registry-\(trial)")
            let payload = try Self.payload()
            let results = try ClaimProbe.race(path: path, payloads: Array(repeating: payload, count: 8))
            for result in results { tally[result, default: 0] += 1 }
            #expect(results.sorted() == ["CLAIMED"] + Array(repeating: "REFUSED alreadyScanned", count: 7), "trial \(trial)")
            #expect(try await blocking { try FileRegistryStorage(path: path).load() }.map(\.transferID) == [payload.transferID])
        }
        #expect(tally == ["CLAIMED": trials, "REFUSED alreadyScanned": 7 * trials])
    }

    /// Two processes claim two different QRs at once: both claims are kept, in every trial.
    @Test func twoProcessesClaimingTwoQRsLoseNoClaim() async throws {
        try await Self.claimTwoQRs(trials: Self.trials)
    }

    @Test(.slowSlice) func twoProcessesClaimingTwoQRsLoseNoClaimFiftyTimes() async throws {
        try await Self.claimTwoQRs(trials: Self.slowTrials)
    }

    static func claimTwoQRs(trials: Int) async throws {
        let directory = try RegistryTests.Directory()
        for trial in 0..<trials {
            let path = directory.path("registry-\(trial)")
            let payloads = [try Self.payload(), try Self.payload()]
            let results = try ClaimProbe.race(path: path, payloads: payloads)
            #expect(results == ["CLAIMED", "CLAIMED"], "trial \(trial)")
            let stored = Set(try await blocking { try FileRegistryStorage(path: path).load() }.map(\.transferID))
            #expect(stored == Set(payloads.map(\.transferID)), "trial \(trial): a claim was lost")
        }
    }

    /// A lock file left by a process killed while holding the lock does not block the next claim.
    @Test func aLockHeldByAKilledProcessDoesNotBlock() async throws {
        let directory = try RegistryTests.Directory()
        let path = directory.path("registry")
        let holder = try ClaimProbe.holdLock(path: path)
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: path + ".lock"))
        let payload = try Self.payload()
        #expect(try ClaimProbe.race(path: path, payloads: [payload]) == ["CLAIMED"])
    }

    /// A fresh QR payload that expires in three minutes.
    static func payload() throws -> SessionPayload {
        let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Ada", emailAddress: "ada@example.org",
                                          username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        return try HandoffSender.start(account: account, rendezvous: RendezvousToken(bytes: [0, 9]), random: SystemRandomSource(),
                                       now: Date()).payload
    }
}

/// Starts `registry-claim-probe` processes and releases them together.
enum ClaimProbe {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts one probe per payload on `path`, waits until all are started and have loaded the
    /// registry, then sends every one its "go" line; returns their output lines in order.
    static func race(path: String, payloads: [SessionPayload]) throws -> [String] {
        let binary = try binary()
        var running: [(process: Process, input: FileHandle, output: FileHandle)] = []
        for payload in payloads {
            let process = Process()
            process.executableURL = binary
            process.arguments = [path]
            let input = InheritanceSafePipe()
            let output = InheritanceSafePipe()
            process.standardInput = input.fileHandleForReading
            process.standardOutput = output.fileHandleForWriting
            process.standardError = FileHandle.nullDevice
            try process.run()
            try input.fileHandleForReading.close()
            try output.fileHandleForWriting.close()
            try input.fileHandleForWriting.write(contentsOf: Data((payload.text + "\n").utf8))
            running.append((process, input.fileHandleForWriting, output.fileHandleForReading))
        }
        for probe in running { try probe.input.write(contentsOf: Data("go\n".utf8)) }
        return running.map { probe in
            let line = String(decoding: probe.output.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            try? probe.input.close()
            probe.process.waitUntilExit()
            return line
        }
    }

    /// A process (flock(1), which execs sleep(1) with the lock held) that holds `<path>.lock` until
    /// killed, or for `seconds`.
    static func holdLock(path: String, seconds: Int = 60) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = ["--exclusive", "--no-fork", path + ".lock", "/bin/sleep", String(seconds)]
        try process.run()
        // Wait until the lock is taken: a non-blocking attempt fails while the holder has it.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let descriptor = open(path + ".lock", O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                let busy = flock(descriptor, LOCK_EX | LOCK_NB) != 0
                if !busy { _ = flock(descriptor, LOCK_UN) }
                close(descriptor)
                if busy { return process }
            }
            usleep(5_000)
        }
        process.terminate()
        throw Failure(description: "flock(1) did not take the registry's lock within 10 s")
    }

    /// The probe built next to the test bundle by `swift build --build-tests`.
    static func binary() throws -> URL {
        try BuiltExecutable.url(named: "registry-claim-probe")
    }
}
