#if os(Linux)
import Foundation
import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Should a step of a live session still find no guarded memory (its reservation rules that
/// out; here it is taken away on purpose), the session ends at once instead of ignoring the
/// frame and waiting (Spec 6.0 step 4, 8.5): a side that holds its peer's keys before the
/// credential left tells the peer with `abort(7)`, and the peer ends
/// `failed.peerSecureMemoryUnavailable` (`deliveredUnconfirmed.` once the password left); the
/// sender in `awaitingHello` or `awaitingReceipt` ends without a frame; an unauthenticated
/// frame is still only ignored. The pool is starved for real in a child process, whose global
/// pool no other test shares.
@Suite struct SessionMemoryRefusalTests {
    @Test func aStepThatFindsNoMemoryEndsBothDevicesWithTheirMemoryEndings() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            StarvedSessionProbe.run()
        }
        guard let result else { return }
        let report = ChildReport(parsing: result.standardOutputContent)
        print("steps without guarded memory:", report.values.sorted(by: { $0.key < $1.key }))
        #expect(report["error"] == nil)
        let ended = "finished(failed.secureMemoryUnavailable)"
        let told = "send(abort) \(ended)"
        let peerEnded = "finished(failed.peerSecureMemoryUnavailable)"
        // The sender before any receiver's session exists: no frame, the receiver only sees the connection close.
        #expect(report["senderGetsTheHello"] == ended)
        // Each side in each phase that needs memory, and what its peer makes of the abort(7).
        #expect(report["receiverGetsTheReveal"] == told)
        #expect(report["receiverGetsTheReveal.peer"] == peerEnded)
        #expect(report["receiverDerivesTheCode"] == told)
        #expect(report["receiverDerivesTheCode.peer"] == peerEnded)
        #expect(report["senderGetsATamperedAccept"] == "ignored(authenticationFailed)")
        #expect(report["senderGetsTheAccept"] == told)
        #expect(report["senderGetsTheAccept.peer"] == peerEnded)
        #expect(report["senderGetsThePassword"] == told)
        #expect(report["senderGetsThePassword.peer"] == peerEnded)
        #expect(report["receiverGetsTheCredential"] == told)
        #expect(report["receiverGetsTheCredential.peer"] == "finished(deliveredUnconfirmed.failed.peerSecureMemoryUnavailable)")
        #expect(report["receiverDeliversTheCredential"] == told)
        #expect(report["receiverDeliversTheCredential.peer"] == "finished(deliveredUnconfirmed.failed.peerSecureMemoryUnavailable)")
        #expect(report["receiverDerivesTheCodeWithItsSlots"] == "showShortCode")
        #expect(report["receiverDeliversTheCredentialWithItsSlots"] == "deliverAccount")
        // The sender after the password left: no frame.
        #expect(report["senderGetsTheReceipt"] == "finished(deliveredUnconfirmed.failed.secureMemoryUnavailable)")
        #expect(report["abortFrames"] == "6")
        #expect(report["outcomes"] == "secureMemoryUnavailable(capReached) x 8")
        #expect(report["nothingDelivered"] == "true")
        #expect(report["secretsWiped"] == "true")
        #expect(report["passwordWiped"] == "true")
    }
}

/// Runs in a child process: takes one side's reservation away, caps the pool at what it has
/// mapped and fills every free slot (but the ones a case leaves), then feeds that side its
/// next frame or event, and its peer the abort it sent.
enum StarvedSessionProbe {
    private struct Case {
        let name: String
        let until: SessionPair.Step
        let starvedSender: Bool
        /// Free slots left per size class: the step gets this far before it needs more.
        var leaving: [Int: Int] = [:]
        let event: (SessionPair) throws -> [String]
    }

    static func run() {
        var report = ChildReport()
        var outcomes: [String] = []
        var abortFrames = 0
        var wiped = true
        var nothingDelivered = true
        let password = Fixtures.secret(Fixtures.password)
        let cases: [Case] = [
            Case(name: "senderGetsTheHello", until: .scanned, starvedSender: true) { try $0.send(.frameReceived($0.receiverFrames[0])).kinds },
            Case(name: "receiverGetsTheReveal", until: .helloAccepted, starvedSender: false) {
                try $0.receive(.frameReceived($0.senderFrames[0])).kinds
            },
            // The reveal's nonce gets the one slot of 32 bytes; codePRK finds none (Spec 4.4).
            Case(name: "receiverDerivesTheCode", until: .helloAccepted, starvedSender: false, leaving: [32: 1]) {
                try $0.receive(.frameReceived($0.senderFrames[0])).kinds
            },
            // Controls: one slot more of what the derivation and the copy need, and both go through.
            Case(name: "receiverDerivesTheCodeWithItsSlots", until: .helloAccepted, starvedSender: false, leaving: [32: 2, 64: 1]) {
                try $0.receive(.frameReceived($0.senderFrames[0])).kinds
            },
            Case(name: "receiverDeliversTheCredentialWithItsSlots", until: .credentialSent, starvedSender: false, leaving: [1024: 1, 64: 1]) {
                try $0.receive(.frameReceived($0.senderFrames[2])).kinds
            },
            Case(name: "senderGetsTheAccept", until: .receiverConfirmed, starvedSender: true) { pair in
                var tampered = pair.receiverFrames[1]
                tampered[tampered.count - 1] ^= 0x01
                report["senderGetsATamperedAccept"] = try pair.send(.frameReceived(tampered)).kinds.joined(separator: " ")
                return try pair.send(.frameReceived(pair.receiverFrames[1])).kinds
            },
            Case(name: "senderGetsThePassword", until: .acceptReceived, starvedSender: true) { try $0.send(.credentialProvided(password)).kinds },
            Case(name: "receiverGetsTheCredential", until: .credentialSent, starvedSender: false) {
                try $0.receive(.frameReceived($0.senderFrames[2])).kinds
            },
            // The credential's plaintext gets the one slot of 1024 bytes; the app's copy of the password finds none.
            Case(name: "receiverDeliversTheCredential", until: .credentialSent, starvedSender: false, leaving: [1024: 1]) {
                try $0.receive(.frameReceived($0.senderFrames[2])).kinds
            },
            Case(name: "senderGetsTheReceipt", until: .importFinished, starvedSender: true) { try $0.send(.frameReceived($0.receiverFrames[2])).kinds },
        ]
        do {
            for item in cases {
                let pair = try SessionPair()
                try pair.run(until: item.until)
                let sentBefore = item.starvedSender ? pair.senderFrames.count : pair.receiverFrames.count
                let memory = item.starvedSender ? pair.sender.memory : pair.receiver.memory
                let kinds = try starved(memory, leaving: item.leaving) { try item.event(pair) }
                report[item.name] = kinds.joined(separator: " ")
                let end = item.starvedSender ? pair.sender.outcome?.end : pair.receiver.outcome?.end
                if case .failed(let error)? = end, case .secureMemoryUnavailable(let failure) = error.kind {
                    outcomes.append("secureMemoryUnavailable(\(LockLimitProbe.caseName(failure)))")
                }
                // A side that ended has wiped its secrets and handed nothing to its app (the controls go on).
                if end != nil {
                    wiped = wiped && (item.starvedSender ? pair.sender.guardedSecrets : pair.receiver.guardedSecrets).allSatisfy(\.isAllZero)
                    nothingDelivered = nothingDelivered && (item.starvedSender || pair.delivered == nil)
                }
                // The abort it sent, if any, reaches its peer, whose memory is there.
                let sent = item.starvedSender ? pair.senderFrames : pair.receiverFrames
                guard sent.count > sentBefore, let abort = sent.last else { continue }
                // A one-byte abort (Spec 3.2); its reason is what the peer's ending shows (3.6: 7 is the only one
                // that ends as failed.peerSecureMemoryUnavailable).
                if try Frame(bytes: abort).type == .abort, abort.count == Frame.headerByteCount + 1 + ChaCha20Poly1305.tagByteCount {
                    abortFrames += 1
                }
                let peer = item.starvedSender ? try pair.receive(.frameReceived(abort)).kinds : try pair.send(.frameReceived(abort)).kinds
                report[item.name + ".peer"] = peer.joined(separator: " ")
            }
            report["passwordWiped"] = "\(password.isWiped)"
        } catch {
            report["error"] = "\(error)"
        }
        report["abortFrames"] = "\(abortFrames)"
        report["outcomes"] = Set(outcomes).map { "\($0) x \(outcomes.count)" }.joined(separator: ", ")
        report["secretsWiped"] = "\(wiped)"
        report["nothingDelivered"] = "\(nothingDelivered)"
        report.print()
    }

    /// Runs `body` with `reservation` ended and no free slot anywhere in the pool but those
    /// `leaving` names, then gives the slots and the cap back.
    private static func starved<Result>(_ reservation: SecureMemoryReservation, leaving: [Int: Int],
                                        _ body: () throws -> Result) throws -> Result {
        reservation.end()
        let pool = GuardedAllocator.pool
        let normal = pool.configuration
        pool.reconfigure(.init(maximumLockedBytes: pool.statistics.lockedBytes, emptySlabsKeptPerSizeClass: normal.emptySlabsKeptPerSizeClass))
        var fillers: [(UnsafeMutableRawPointer, Int)] = []
        for size in SlotLayout.sizeClasses {
            while let filler = try? pool.allocate(size) { fillers.append((filler, size)) }
        }
        for (size, count) in leaving {
            for _ in 0..<count {
                guard let index = fillers.firstIndex(where: { $0.1 == size }) else { break }
                pool.release(fillers[index].0, count: size)
                fillers.remove(at: index)
            }
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
