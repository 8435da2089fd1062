import Foundation
import Testing
@testable import AccountHandoff

/// Cancel and reject in every phase of both roles (Spec 6.1, 6.2): what each side does, what
/// the other side concludes from the abort, and that every session secret is wiped.
@Suite struct CancellationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// Where both sides stand on the happy path.
        let step: SessionPair.Step
        /// The local side's actions.
        let local: [String]
        /// The peer's actions when it receives the abort frame, or nil when no frame is sent.
        let peer: [String]?
        var testDescription: String { "after \(step)" }
    }

    static let senderCancelsCases: [Case] = [
        Case(step: .qrShown, local: ["finished(cancelled.local)"], peer: nil),
        Case(step: .scanned, local: ["finished(cancelled.local)"], peer: nil),
        Case(step: .revealReceived, local: ["send(abort)", "finished(cancelled.local)"], peer: ["finished(cancelled.peer)"]),
        Case(step: .offerReceived, local: ["send(abort)", "finished(cancelled.local)"], peer: ["finished(cancelled.peer)"]),
        Case(step: .acceptReceived, local: ["send(abort)", "finished(cancelled.local)"], peer: ["finished(cancelled.peer)"]),
        // The credential left: nothing to stop, so no frame, and the outcome says so.
        Case(step: .credentialReceived, local: ["finished(deliveredUnconfirmed.cancelled.local)"], peer: nil),
        Case(step: .receiptReceived, local: [], peer: nil),
    ]

    @Test(arguments: senderCancelsCases)
    func senderCancels(_ testCase: Case) throws {
        let pair = try SessionPair()
        try pair.run(until: testCase.step)
        let outcomeBefore = pair.sender.outcome
        let step = try pair.send(.cancel)
        #expect(step.kinds == testCase.local)
        #expect(step.nextDeadline == nil)
        #expect(pair.sender.phase == .finished)
        #expect(pair.sender.memory.hasEnded)
        if testCase.local.isEmpty { #expect(pair.sender.outcome == outcomeBefore) }
        if let peer = testCase.peer {
            let abort = try #require(step.actions.first?.frame)
            #expect(try pair.receive(.frameReceived(abort)).kinds == peer)
            #expect(pair.receiver.memory.hasEnded)
        }
    }

    @Test func afterACancelWhileDeliveringTheReceiverStillImportsAndTheReceiptIsIgnored() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        _ = try pair.send(.cancel)
        try pair.run(until: .importFinished)
        #expect(pair.receiver.outcome == .completed(.imported))
        #expect(try pair.send(.frameReceived(pair.receiverFrames[2])).kinds == ["ignored(sessionFinished)"])
        #expect(pair.sender.outcome == .deliveredUnconfirmed(.cancelled(by: .local)))
        #expect(pair.sender.outcome?.credentialLeft == true)
    }

    static let receiverCancelsCases: [Case] = [
        Case(step: .helloAccepted, local: ["send(abort)", "finished(cancelled.local)"], peer: ["finished(cancelled.peer)"]),
        Case(step: .revealReceived, local: ["send(abort)", "finished(cancelled.local)"], peer: ["finished(cancelled.peer)"]),
        Case(step: .offerReceived, local: ["send(abort)", "finished(cancelled.local)"], peer: ["finished(cancelled.peer)"]),
        Case(step: .acceptReceived, local: ["send(abort)", "finished(cancelled.local)"], peer: ["finished(cancelled.peer)"]),
        // The credential is on its way: the sender learns it was cancelled after it left.
        Case(step: .credentialSent, local: ["send(abort)", "finished(cancelled.local)"],
             peer: ["finished(deliveredUnconfirmed.cancelled.peer)"]),
        Case(step: .importFinished, local: [], peer: nil),
    ]

    @Test(arguments: receiverCancelsCases)
    func receiverCancels(_ testCase: Case) throws {
        let pair = try SessionPair()
        try pair.run(until: testCase.step)
        let step = try pair.receive(.cancel)
        #expect(step.kinds == testCase.local)
        #expect(step.nextDeadline == nil)
        #expect(pair.receiver.phase == .finished)
        #expect(pair.receiver.memory.hasEnded)
        if let peer = testCase.peer {
            let abort = try #require(step.actions.first?.frame)
            #expect(try pair.send(.frameReceived(abort)).kinds == peer)
            #expect(pair.sender.memory.hasEnded)
        }
    }

    @Test func aCredentialArrivingAfterTheReceiverCancelledIsIgnored() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialSent)
        _ = try pair.receive(.cancel)
        #expect(try pair.receive(.frameReceived(pair.senderFrames[2])).kinds == ["ignored(sessionFinished)"])
        #expect(pair.delivered == nil)
        #expect(pair.receiver.outcome == .ended(.cancelled(by: .local)))
    }

    @Test func theReceiverCannotCancelWhileTheAppImports() throws {
        let pair = try SessionPair()
        try pair.run(until: .credentialReceived)
        #expect(throws: HandoffError.invalidEvent(.cancel, in: .receiver(.awaitingImportResult))) {
            try pair.receiver.handle(.cancel, now: Fixtures.start)
        }
        #expect(pair.receiver.phase == .awaitingImportResult)
        try pair.run(until: .receiptReceived)
        #expect(pair.sender.outcome == .completed(.imported))
    }

    static let senderRejectsCases: [Case] = [
        Case(step: .revealReceived, local: ["send(abort)", "finished(rejected.local)"], peer: ["finished(rejected.peer)"]),
        Case(step: .offerReceived, local: ["send(abort)", "finished(rejected.local)"], peer: ["finished(rejected.peer)"]),
        Case(step: .acceptReceived, local: ["send(abort)", "finished(rejected.local)"], peer: ["finished(rejected.peer)"]),
    ]

    @Test(arguments: senderRejectsCases)
    func senderRejects(_ testCase: Case) throws {
        let pair = try SessionPair()
        try pair.run(until: testCase.step)
        let step = try pair.send(.reject)
        #expect(step.kinds == testCase.local)
        let abort = try #require(step.actions.first?.frame)
        #expect(try pair.receive(.frameReceived(abort)).kinds == testCase.peer)
        #expect(pair.allSessionSecretsWiped)
    }

    static let receiverRejectsCases: [Case] = [
        Case(step: .revealReceived, local: ["send(abort)", "finished(rejected.local)"], peer: ["finished(rejected.peer)"]),
        Case(step: .offerReceived, local: ["send(abort)", "finished(rejected.local)"], peer: ["finished(rejected.peer)"]),
        Case(step: .acceptReceived, local: ["send(abort)", "finished(rejected.local)"], peer: ["finished(rejected.peer)"]),
        Case(step: .credentialSent, local: ["send(abort)", "finished(rejected.local)"],
             peer: ["finished(deliveredUnconfirmed.rejected.peer)"]),
    ]

    @Test(arguments: receiverRejectsCases)
    func receiverRejects(_ testCase: Case) throws {
        let pair = try SessionPair()
        try pair.run(until: testCase.step)
        let step = try pair.receive(.reject)
        #expect(step.kinds == testCase.local)
        let abort = try #require(step.actions.first?.frame)
        #expect(try pair.send(.frameReceived(abort)).kinds == testCase.peer)
        #expect(pair.allSessionSecretsWiped)
    }

    /// Local events after the end: `cancel`, `tick` and `transportLost` are no-ops, the others
    /// are refused with `sessionFinished`, and the outcome never changes (Spec 6.0 step 2).
    @Test func afterTheEndCancelTickAndTransportLossAreNoOps() throws {
        let pair = try SessionPair()
        try pair.run(until: .receiptReceived)
        for event in [SenderEvent.cancel, .tick, .transportLost] {
            #expect(try pair.send(event, at: Fixtures.time(10_000)).kinds == [])
        }
        for event in [ReceiverEvent.cancel, .tick, .transportLost] {
            #expect(try pair.receive(event, at: Fixtures.time(10_000)).kinds == [])
        }
        #expect(throws: HandoffError.sessionFinished) { try pair.sender.handle(pair.typedCode, now: Fixtures.start) }
        #expect(throws: HandoffError.sessionFinished) { try pair.sender.handle(.reject, now: Fixtures.start) }
        let late = Fixtures.secret("late password")
        #expect(throws: HandoffError.sessionFinished) { try pair.sender.handle(.credentialProvided(late), now: Fixtures.start) }
        #expect(late.isWiped)
        #expect(throws: HandoffError.sessionFinished) { try pair.receiver.handle(.accept, now: Fixtures.start) }
        #expect(throws: HandoffError.sessionFinished) { try pair.receiver.handle(.reject, now: Fixtures.start) }
        #expect(throws: HandoffError.sessionFinished) { try pair.receiver.handle(.importFinished(.declined), now: Fixtures.start) }
        #expect(pair.sender.outcome == .completed(.imported))
        #expect(pair.receiver.outcome == .completed(.imported))
    }
}
