import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Spec 8.5: each session takes one arena of guarded memory at its start, sized for everything
/// it will hold; every path through both state machines stays within it, the busiest ones
/// come close to its size (it is not padded), and every path gives it back at its end, wiped
/// (every byte zero, once the app wiped the delivered password).
@Suite struct SessionArenaTests {
    /// The paths of a transfer, each run through both state machines, one for every kind of
    /// ending (Spec 6.4).
    enum Path: String, CaseIterable {
        case completedWithOneBytePassword, completedWith33BytePassword, completedWith300BytePassword
        case completedWithLongestPassword, contestedAfterTheReveal, contestedAfterTheAccept
        case secondDeviceAfterDelivery, forgedHellosThenCompleted, expiredAwaitingTheCode, cancelledByTheReceiver
        case longestOfferRefused, rejectedAfterThreeWrongCodes, transportLostAwaitingTheHello
        case storeUnavailableAtTheReceiver, notAuthenticatedAtTheReceiver, cancelledAfterTheCredentialLeft
    }

    @Test(arguments: Path.allCases)
    func everyPathStaysWithinItsArenaAndWipesItAtTheEnd(path: Path) throws {
        let run = try PathRun(path)
        for (role, arena, pages) in run.arenas {
            #expect(arena.highWaterMark <= arena.capacity, "\(role) on \(path)")
            #expect(arena.hasEnded, "\(role) did not give its arena back on \(path)")
            // The end wiped every byte of the pages; only a password handed to the app is
            // exempt, and the app wiped it (or it was never handed over).
            #expect(pages.isZero(0..<pages.byteCount), "\(role) left bytes in its arena on \(path)")
        }
    }

    /// The sizes are not padded: the busiest paths reach the arenas' sizes exactly (the
    /// longest password and its padded plaintext; the longest offer next to the keys).
    @Test func theBusiestPathsFillTheArenas() throws {
        let longest = try PathRun(.completedWithLongestPassword)
        #expect(longest.sender.memory.highWaterMark == longest.sender.memory.capacity)
        let offer = try PathRun(.longestOfferRefused)
        #expect(offer.receiver.memory.highWaterMark == offer.receiver.memory.capacity)
        #expect(HandoffReceiver.longestOfferPlaintext == 3_840)
        // Both fit in one page: a pending sender locks one page of guarded memory.
        #expect(HandoffSender.arenaByteCount <= GuardedRegion.pageSize && HandoffReceiver.arenaByteCount <= GuardedRegion.pageSize)
    }

    @Test func thePasswordCopyIsCheckedForLengthAndComesFromTheArenaOnce() throws {
        let pair = try SessionPair()
        #expect(throws: HandoffError.malformed(.credential)) {
            _ = try [UInt8]().withUnsafeBytes { try pair.sender.credential(copying: $0) }
        }
        let tooLong = [UInt8](repeating: 0x61, count: HandoffSender.maximumCredentialByteCount + 1)
        #expect(throws: HandoffError.malformed(.credential)) {
            _ = try tooLong.withUnsafeBytes { try pair.sender.credential(copying: $0) }
        }
        let copy = try Array("pw".utf8).withUnsafeBytes { try pair.sender.credential(copying: $0) }
        #expect(copy.revealedBytes() == Array("pw".utf8))
        #expect(copy.guardedPages === pair.sender.memory.guardedPages)
        let second = try Array("pw".utf8).withUnsafeBytes { try pair.sender.credential(copying: $0) }
        #expect(second.guardedPages !== pair.sender.memory.guardedPages)
    }

    /// A session that ended holds nothing of its arena, but the delivered password stays the
    /// app's, intact, in the pages it lies in, until the app wipes it.
    @Test func aFinishedSessionLeavesTheDeliveredPasswordToTheApp() throws {
        let pair = try SessionPair()
        try pair.run(until: .scanned)
        let pages = try #require(pair.receiver.memory.guardedPages)
        try pair.run(until: .receiptReceived)
        #expect(pair.sender.memory.hasEnded && pair.receiver.memory.hasEnded)
        let delivered = try #require(pair.delivered)
        #expect(delivered.credential.revealedBytes() == Array(Fixtures.password.utf8))
        #expect(!pages.isZero(0..<pages.byteCount))
        delivered.credential.wipe()
        #expect(pages.isZero(0..<pages.byteCount))
    }
}

/// One ``SessionArenaTests/Path`` run to its end, holding each session's pages to check them after.
private struct PathRun {
    let pair: SessionPair
    var sender: HandoffSender { pair.sender }
    var receiver: HandoffReceiver { pair.receiver }
    /// Every session of the run, by role, with its arena's pages.
    private(set) var arenas: [(String, SessionArena, GuardedPages)] = []

    init(_ path: SessionArenaTests.Path) throws {
        pair = try SessionPair()
        let sender = pair.sender
        try pair.run(until: .scanned)
        arenas = [try Self.arena("sender", sender.memory), try Self.arena("receiver", pair.receiver.memory)]
        switch path {
        case .completedWithOneBytePassword: try complete(passwordLength: 1)
        case .completedWith33BytePassword: try complete(passwordLength: 33)
        case .completedWith300BytePassword: try complete(passwordLength: 300)
        case .completedWithLongestPassword: try complete(passwordLength: HandoffSender.maximumCredentialByteCount)
        case .contestedAfterTheReveal: try contest(after: .revealReceived)
        case .contestedAfterTheAccept: try contest(after: .acceptReceived)
        case .secondDeviceAfterDelivery:
            try pair.run(until: .acceptReceived)
            try sendPassword(length: 20)
            let second = try secondDevice()
            arenas.append(try Self.arena("second receiver", second.receiver.memory))
            let answered = try pair.send(.frameReceived(second.hello))
            _ = try second.receiver.handle(.frameReceived(try #require(answered.actions.first?.frame)), now: Fixtures.start)
            try finishDelivery()
        case .forgedHellosThenCompleted:
            for index in 0..<20 {
                var forged = pair.receiverFrames[0]
                forged[forged.count - 1 - index] ^= 0x01
                try pair.send(.frameReceived(forged))
            }
            try complete(passwordLength: 16)
        case .expiredAwaitingTheCode:
            try pair.run(until: .revealReceived)
            let abort = try #require(try pair.send(.tick, at: Fixtures.time(Fixtures.lifetime)).actions.first?.frame)
            try pair.receive(.frameReceived(abort))
        case .cancelledByTheReceiver:
            try pair.run(until: .revealReceived)
            let abort = try #require(try pair.receive(.cancel).actions.first?.frame)
            try pair.send(.frameReceived(abort))
        case .longestOfferRefused:
            try pair.run(until: .revealReceived)
            let offer = try #require(sender.sealForgedFrame(
                .offer, plaintext: [UInt8](repeating: 0, count: HandoffReceiver.longestOfferPlaintext), linkID: nil))
            try pair.receive(.frameReceived(offer))
            try pair.send(.cancel)
        case .rejectedAfterThreeWrongCodes:
            try pair.run(until: .revealReceived)
            let wrong = String(format: "%06d", ((pair.receiverCode?.value ?? 0) + 1) % 1_000_000)
            for _ in 0..<HandoffSender.maximumCodeEntries { try pair.send(.codeEntered(wrong)) }
            let abort = try #require(pair.senderFrames.last)
            try pair.receive(.frameReceived(abort))
        case .transportLostAwaitingTheHello:
            try pair.send(.transportLost)
            try pair.receive(.transportLost)
        case .storeUnavailableAtTheReceiver:
            try pair.run(until: .revealReceived)
            let abort = try #require(try pair.receive(.storeUnavailable).actions.first?.frame)
            try pair.send(.frameReceived(abort))
        case .notAuthenticatedAtTheReceiver:
            try pair.run(until: .offerReceived)
            let abort = try #require(try pair.receive(.notAuthenticated).actions.first?.frame)
            try pair.send(.frameReceived(abort))
        case .cancelledAfterTheCredentialLeft:
            try pair.run(until: .acceptReceived)
            try sendPassword(length: 20)
            try pair.send(.cancel)
            try pair.receive(.frameReceived(pair.senderFrames[2]))
            try #require(pair.delivered).credential.wipe()
            try pair.receive(.importFinished(.imported))
        }
        #expect(sender.phase == .finished && pair.receiver.phase == .finished, "\(path)")
    }

    private static func arena(_ role: String, _ arena: SessionArena) throws -> (String, SessionArena, GuardedPages) {
        (role, arena, try #require(arena.guardedPages))
    }

    private func complete(passwordLength: Int) throws {
        try pair.run(until: .acceptReceived)
        try sendPassword(length: passwordLength)
        try finishDelivery()
        #expect(sender.outcome == .completed(.imported))
    }

    private func sendPassword(length: Int) throws {
        let password = try [UInt8](repeating: 0x70, count: length).withUnsafeBytes { try sender.credential(copying: $0) }
        try pair.send(.credentialProvided(password))
    }

    /// The receiver opens the credential, imports (the app wipes the password) and sends the receipt.
    private func finishDelivery() throws {
        try pair.receive(.frameReceived(pair.senderFrames[2]))
        try #require(pair.delivered).credential.wipe()
        try pair.receive(.importFinished(.imported))
        try pair.send(.frameReceived(pair.receiverFrames[2]))
    }

    private mutating func contest(after step: SessionPair.Step) throws {
        try pair.run(until: step)
        let second = try secondDevice()
        arenas.append(try Self.arena("second receiver", second.receiver.memory))
        let contested = try pair.send(.frameReceived(second.hello))
        try pair.receive(.frameReceived(try #require(contested.actions.first?.frame)))
        _ = try second.receiver.handle(.frameReceived(try #require(contested.actions.dropFirst().first?.frame)),
                                       now: Fixtures.start)
    }

    private func secondDevice() throws -> (receiver: HandoffReceiver, hello: [UInt8]) {
        let (receiver, step) = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: 99),
                                                        now: Fixtures.start)
        return (receiver, try #require(step.actions.first?.frame))
    }
}
