#if os(Linux)
import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Should a step of a live session still find no guarded memory (its reservation rules that
/// out; here it is taken away on purpose), the session ends as
/// `failed.secureMemoryUnavailable` at once instead of ignoring the frame and waiting, and an
/// unauthenticated frame is still only ignored (Spec 8.5). The pool is starved in a child
/// process, whose global pool no other test shares.
@Suite struct SessionMemoryRefusalTests {
    @Test func aStepThatFindsNoMemoryEndsTheSessionAndAForgeryIsStillIgnored() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            StarvedSessionProbe.run()
        }
        guard let result else { return }
        let report = ChildReport(parsing: result.standardOutputContent)
        print("steps without guarded memory:", report.values.sorted(by: { $0.key < $1.key }))
        let ended = "finished(failed.secureMemoryUnavailable)"
        #expect(report["senderGetsTheHello"] == ended)
        #expect(report["receiverGetsTheReveal"] == ended)
        #expect(report["senderGetsATamperedAccept"] == "ignored(authenticationFailed)")
        #expect(report["senderGetsTheAccept"] == ended)
        #expect(report["senderGetsThePassword"] == ended)
        #expect(report["receiverGetsTheCredential"] == ended)
        #expect(report["outcomes"] == "secureMemoryUnavailable(capReached) x 5")
        #expect(report["secretsWiped"] == "true")
        #expect(report["passwordWiped"] == "true")
    }
}

/// Runs in a child process: takes each session's reservation away, caps the pool at what it
/// has mapped and fills every free slot, then feeds the session its next frame or event.
enum StarvedSessionProbe {
    static func run() {
        var report = ChildReport()
        var outcomes: [String] = []
        var wiped = true
        func record(_ key: String, _ kinds: [String], _ outcome: SessionEnd?) {
            report[key] = kinds.joined(separator: " ")
            if case .failed(.secureMemoryUnavailable(let failure))? = outcome {
                outcomes.append("secureMemoryUnavailable(\(LockLimitProbe.caseName(failure)))")
            }
        }
        do {
            var pair = try SessionPair()
            try pair.run(until: .scanned)
            var step = try starved(pair.sender.memory) { try pair.send(.frameReceived(pair.receiverFrames[0])) }
            record("senderGetsTheHello", step.kinds, pair.sender.outcome?.end)
            wiped = wiped && pair.sender.guardedSecrets.allSatisfy(\.isAllZero)

            pair = try SessionPair()
            try pair.run(until: .helloAccepted)
            let receiverStep = try starved(pair.receiver.memory) { try pair.receive(.frameReceived(pair.senderFrames[0])) }
            record("receiverGetsTheReveal", receiverStep.kinds, pair.receiver.outcome?.end)
            wiped = wiped && pair.receiver.guardedSecrets.allSatisfy(\.isAllZero)

            pair = try SessionPair()
            try pair.run(until: .receiverConfirmed)
            var tampered = pair.receiverFrames[1]
            tampered[tampered.count - 1] ^= 0x01
            step = try starved(pair.sender.memory) {
                report["senderGetsATamperedAccept"] = try pair.send(.frameReceived(tampered)).kinds.joined(separator: " ")
                return try pair.send(.frameReceived(pair.receiverFrames[1]))
            }
            record("senderGetsTheAccept", step.kinds, pair.sender.outcome?.end)

            pair = try SessionPair()
            try pair.run(until: .acceptReceived)
            let password = Fixtures.secret(Fixtures.password)
            step = try starved(pair.sender.memory) { try pair.send(.credentialProvided(password)) }
            record("senderGetsThePassword", step.kinds, pair.sender.outcome?.end)
            wiped = wiped && pair.sender.guardedSecrets.allSatisfy(\.isAllZero)
            report["passwordWiped"] = "\(password.isWiped)"

            pair = try SessionPair()
            try pair.run(until: .credentialSent)
            let delivery = try starved(pair.receiver.memory) { try pair.receive(.frameReceived(pair.senderFrames[2])) }
            record("receiverGetsTheCredential", delivery.kinds, pair.receiver.outcome?.end)
            wiped = wiped && pair.receiver.guardedSecrets.allSatisfy(\.isAllZero)
        } catch {
            report["error"] = "\(error)"
        }
        report["outcomes"] = Set(outcomes).map { "\($0) x \(outcomes.count)" }.joined(separator: ", ")
        report["secretsWiped"] = "\(wiped)"
        report.print()
    }

    /// Runs `body` with `reservation` ended and no free slot anywhere in the pool, then gives
    /// the slots and the cap back.
    private static func starved<Result>(_ reservation: SecureMemoryReservation, _ body: () throws -> Result) throws -> Result {
        reservation.end()
        let pool = GuardedAllocator.pool
        let normal = pool.configuration
        pool.reconfigure(.init(maximumLockedBytes: pool.statistics.lockedBytes, emptySlabsKeptPerSizeClass: normal.emptySlabsKeptPerSizeClass))
        var fillers: [(UnsafeMutableRawPointer, Int)] = []
        for size in SlotLayout.sizeClasses {
            while let filler = try? pool.allocate(size) { fillers.append((filler, size)) }
        }
        defer {
            for (filler, size) in fillers { pool.release(filler, count: size) }
            pool.reconfigure(normal)
        }
        return try body()
    }
}

private extension SenderOutcome {
    var end: SessionEnd? {
        switch self {
        case .completed: nil
        case .deliveredUnconfirmed(let end), .ended(let end): end
        }
    }
}

private extension ReceiverOutcome {
    var end: SessionEnd? {
        switch self {
        case .completed: nil
        case .ended(let end): end
        }
    }
}
#endif
