#if os(Linux)
import Foundation
import Testing
@testable import AccountHandoff

/// Spec 8.5, each claim with the test that fails if it is false: a write past a secret's end or
/// past a session's arena faults on a guard page; a read after a wipe, or after the session
/// ended, traps with a message that holds no secret; running an arena past its end traps. Each
/// runs in a child process.
@Suite struct GuardedMemoryTrapTests {
    /// Bytes written as the "secret" in the children; a trap message must not contain them.
    private static let secretHex = "c3c3c3c3"

    private static func expectTrap(_ result: ExitTest.Result?, saying message: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(standardError.contains(message), "stderr: \(standardError.prefix(600))", sourceLocation: sourceLocation)
        #expect(!standardError.lowercased().contains(secretHex), sourceLocation: sourceLocation)
    }

    // MARK: Writes past the end fault

    /// An app's secret ends where its pages end: one byte past it is the trailing guard page.
    @Test func aWritePastTheEndOfASecretFaults() async {
        await #expect(processExitsWith: .signal(SIGSEGV)) {
            let secret = try SecretBytes(copying: [UInt8](repeating: 0xC3, count: 33))
            secret.withUnsafeMutableBytes { $0.baseAddress!.storeBytes(of: 0xC3, toByteOffset: 33, as: UInt8.self) }
        }
    }

    /// A session's arena ends where its pages end: its last temporary is followed by the guard page.
    @Test func aWritePastTheEndOfASessionsArenaFaults() async {
        await #expect(processExitsWith: .signal(SIGSEGV)) {
            let arena = try SessionArena(byteCount: HandoffSender.arenaByteCount)
            arena.withScratch(byteCount: 32) { $0.baseAddress!.storeBytes(of: 0xC3, toByteOffset: 32, as: UInt8.self) }
        }
    }

    /// The page before an arena of whole pages is a guard page too.
    @Test func aWriteBeforeTheStartOfAnArenaFaults() async {
        await #expect(processExitsWith: .signal(SIGSEGV)) {
            let arena = try SessionArena(byteCount: GuardedRegion.pageSize)
            let first = arena.keep(16)
            first.withUnsafeMutableBytes { $0.baseAddress!.storeBytes(of: 0xC3, toByteOffset: -1, as: UInt8.self) }
        }
    }

    /// The arena is sized for its session; asking past it is a programming error, not a
    /// silent overlap of two secrets.
    @Test func runningAnArenaPastItsEndTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let arena = try SessionArena(byteCount: 64)
            _ = arena.keep(48)
            arena.withScratch(byteCount: 32) { _ in }
        }
        Self.expectTrap(result, saying: "a session arena ran out")
    }

    // MARK: Reads after a wipe trap

    @Test func readingAWipedSecretTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let secret = try SecretBytes(copying: [UInt8](repeating: 0xC3, count: 32))
            secret.wipe()
            _ = secret.withUnsafeBytes { $0.first }
        }
        Self.expectTrap(result, saying: "A wiped secret was read")
    }

    @Test func readingAWipedSessionSecretTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let arena = try SessionArena(byteCount: 64)
            let secret = [UInt8](repeating: 0xC3, count: 32).withUnsafeBytes { arena.keep(copying: $0) }
            secret.wipe()
            _ = secret.withUnsafeBytes { $0.first }
        }
        Self.expectTrap(result, saying: "A wiped secret was used")
    }

    /// The end of a session wipes its arena and lets it go: a secret it kept, read later
    /// (through a handle a bug kept), traps before it could touch memory that is gone.
    @Test func readingASessionsSecretAfterItEndedTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let sender = try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                                 random: SystemRandomSource(), now: Fixtures.start)
            let privateKey = sender.keptSecrets[0]
            _ = try sender.handle(.cancel, now: Fixtures.start)
            _ = privateKey.withUnsafeBytes { $0.first }
        }
        Self.expectTrap(result, saying: "used after the session ended")
    }

    // MARK: What the kernel says

    /// Every arena and every app secret is one locked, never-dumped, read-write mapping with an
    /// inaccessible page directly before and after it (`/proc/self/smaps`).
    @Test func arenasAndSecretsAreLockedNotDumpedAndGuarded() throws {
        let arena = try SessionArena(byteCount: HandoffReceiver.arenaByteCount)
        let pages = try #require(arena.guardedPages)
        let secret = try SecretBytes(copying: [1, 2, 3])
        let secretPages = secret.guardedPages
        let map = ProcessMemoryMap()
        #expect(map.guardProblem(around: pages.body) == nil)
        #expect(map.guardProblem(around: secretPages.body) == nil)
        #expect(pages.byteCount == GuardedRegion.pageSize && arena.capacity == HandoffReceiver.arenaByteCount)
    }

    /// The pages of an ended session are kept for the next one only wiped whole and still
    /// guarded, and at most eight stay locked beyond the live ones (Spec 8.5). In a child
    /// process, so that no other test takes the kept pages meanwhile.
    @Test func keptPagesAreWipedGuardedAndFew() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            var report = ChildReport()
            let first = try SessionArena(byteCount: HandoffSender.arenaByteCount)
            let body = first.guardedPages!.body
            _ = [UInt8](repeating: 0xC3, count: 64).withUnsafeBytes { first.keep(copying: $0) }
            first.withScratch(byteCount: 512) { _ = $0.initializeMemory(as: UInt8.self, repeating: 0xC3) }
            first.end()  // its pages go back: wiped, kept for the next arena
            let second = try SessionArena(byteCount: HandoffReceiver.arenaByteCount)
            let pages = second.guardedPages!
            report["reused"] = "\(pages.body == body)"
            report["allZero"] = "\(pages.isZero(0..<pages.byteCount))"
            report["guardProblem"] = ProcessMemoryMap().guardProblem(around: pages.body) ?? "none"
            second.end()
            let many = try (0..<12).map { _ in try SessionArena(byteCount: HandoffSender.arenaByteCount) }
            for arena in many { arena.end() }
            report["keptAfterTwelve"] = "\(GuardedPages.keptRegionCount)"
            report.print()
        }
        guard let result else { return }
        let report = ChildReport(parsing: result.standardOutputContent)
        #expect(report["reused"] == "true")
        #expect(report["allZero"] == "true")
        #expect(report["guardProblem"] == "none")
        #expect(report["keptAfterTwelve"] == "8")
    }
}
#endif
