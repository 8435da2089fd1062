import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Admission (Spec 8.5): each session reserves at its start every guarded secret it can hold
/// at once, and every path through both state machines stays within that reservation (no
/// overdraft), reaches its busiest moment exactly where ``SessionMemory`` says, and hands the
/// reservation back when it finishes.
@Suite struct SessionMemoryTests {
    private static let byClass = Dictionary(uniqueKeysWithValues: SlotLayout.sizeClasses.enumerated().map { ($1, $0) })

    @Test func theReservationsAreCountedFromTheKeyScheduleAndTheLongestPlaintexts() {
        // Sender: private key, commitment copy, admission key, four session keys, and a second
        // device's shared secret, PRK and four keys (contested): 13 of 32 bytes; the code
        // material; the password and its padded plaintext.
        #expect(SessionMemory.sender.slotsPerSizeClass == [13, 1, 0, 0, 0, 2, 0, 0])
        #expect(SessionMemory.sender.slabBytes == 13 * 48 + 80 + 2 * 1040)
        // Receiver: the scan's key pair, commitment, shared secret, PRK and four keys; the code
        // material; the padded credential and the delivered password; the longest offer.
        #expect(SessionMemory.longestOfferPlaintext == 3_840)
        #expect(SessionMemory.receiver.slotsPerSizeClass == [8, 1, 0, 0, 0, 2, 0, 1])
        #expect(SessionMemory.receiver.slabBytes == 6_656)  // Spec 8.5: 8 x 48 + 80 + 2 x 1040 + 4112
    }

    /// The paths of a transfer, each run through both state machines with the sender's
    /// transport keys derived under its reservation (as its driver does).
    enum Path: String, CaseIterable {
        case completedWithOneBytePassword, completedWith33BytePassword, completedWith300BytePassword
        case completedWithLongestPassword, contestedAfterTheReveal, contestedAfterTheAccept
        case secondDeviceAfterDelivery, forgedHellosThenCompleted, expiredAwaitingTheCode, cancelledByTheReceiver
        case longestOfferRefused, rejectedAfterThreeWrongCodes
    }

    @Test(arguments: Path.allCases)
    func everyPathStaysWithinItsReservationAndHandsItBack(path: Path) throws {
        let run = try PathRun(path)
        for (role, reservation) in run.reservations {
            #expect(reservation.usage.overdrafts == 0, "\(role) overdrew on \(path)")
            #expect(reservation.usage.isEnded, "\(role) did not hand its reservation back on \(path)")
            for (index, peak) in reservation.usage.peakDrawn.enumerated() {
                #expect(peak <= reservation.demand.slotsPerSizeClass[index], "\(role), class \(index)")
            }
        }
    }

    /// The counts are not padded: the busiest moments of the paths reach them exactly.
    @Test func theBusiestMomentsReachTheReservations() throws {
        let contested = try PathRun(.contestedAfterTheReveal)
        #expect(contested.sender.memory.usage.peakDrawn[Self.byClass[32]!] == 13)
        #expect(contested.receiver.memory.usage.peakDrawn[Self.byClass[32]!] == 8)
        let longest = try PathRun(.completedWithLongestPassword)
        #expect(longest.sender.memory.usage.peakDrawn[Self.byClass[1024]!] == 2)
        #expect(longest.sender.memory.usage.peakDrawn[Self.byClass[64]!] == 1)
        #expect(longest.receiver.memory.usage.peakDrawn[Self.byClass[1024]!] == 2)
        #expect(longest.receiver.memory.usage.peakDrawn[Self.byClass[64]!] == 1)
        let offer = try PathRun(.longestOfferRefused)
        #expect(offer.receiver.memory.usage.peakDrawn[Self.byClass[4096]!] == 1)
    }

    @Test func thePasswordCopyFromTheReservationIsCheckedForLength() throws {
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
        #expect(pair.sender.memory.usage.drawn[Self.byClass[32]!] == 4)  // with the nonce, key and commitment copy
    }

    /// A session that ended does not hold its reservation any more, even while the app keeps
    /// the delivered password (that slot stays live until the app releases it).
    @Test func aFinishedSessionHoldsNoReservedSlot() throws {
        let pair = try SessionPair()
        try pair.run(until: .receiptReceived)
        #expect(pair.sender.memory.usage.isEnded && pair.receiver.memory.usage.isEnded)
        let delivered = try #require(pair.delivered)
        #expect(pair.receiver.memory.usage.drawn.reduce(0, +) >= 1)
        #expect(delivered.credential.revealedBytes() == Array(Fixtures.password.utf8))
    }
}

/// One ``SessionMemoryTests/Path`` run to its end.
private struct PathRun {
    let pair: SessionPair
    var sender: HandoffSender { pair.sender }
    var receiver: HandoffReceiver { pair.receiver }
    /// Every session of the run, by role.
    private(set) var reservations: [(String, SecureMemoryReservation)] = []

    init(_ path: SessionMemoryTests.Path) throws {
        pair = try SessionPair()
        let sender = pair.sender
        let transport = try sender.memory.bind { () throws(HandoffError) in try TransportKeys(payload: sender.payload) }
        defer { transport.admissionKey.wipe() }
        try pair.run(until: .scanned)
        reservations = [("sender", sender.memory), ("receiver", pair.receiver.memory)]
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
            let answered = try pair.send(.frameReceived(second.hello))
            _ = try second.receiver.handle(.frameReceived(try #require(answered.actions.first?.frame)), now: Fixtures.start)
            reservations.append(("second receiver", second.receiver.memory))
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
                .offer, plaintext: [UInt8](repeating: 0, count: SessionMemory.longestOfferPlaintext), linkID: nil))
            try pair.receive(.frameReceived(offer))
            try pair.send(.cancel)
        case .rejectedAfterThreeWrongCodes:
            try pair.run(until: .revealReceived)
            let wrong = String(format: "%06d", ((pair.receiverCode?.value ?? 0) + 1) % 1_000_000)
            for _ in 0..<HandoffSender.maximumCodeEntries { try pair.send(.codeEntered(wrong)) }
            let abort = try #require(pair.senderFrames.last)
            try pair.receive(.frameReceived(abort))
        }
        #expect(sender.phase == .finished && pair.receiver.phase == .finished, "\(path)")
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
        let contested = try pair.send(.frameReceived(second.hello))
        try pair.receive(.frameReceived(try #require(contested.actions.first?.frame)))
        _ = try second.receiver.handle(.frameReceived(try #require(contested.actions.dropFirst().first?.frame)),
                                       now: Fixtures.start)
        reservations.append(("second receiver", second.receiver.memory))
    }

    private func secondDevice() throws -> (receiver: HandoffReceiver, hello: [UInt8]) {
        let (receiver, step) = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: 99),
                                                        now: Fixtures.start)
        return (receiver, try #require(step.actions.first?.frame))
    }
}
