import Foundation
import Testing
@_spi(Testing) @testable import AccountHandoff

/// Cancellation and rejection by each person at each step (Spec 6).
@Suite struct CancellationTests {
    /// Steps after which the sender still can cancel (its session is not yet finished).
    static let senderCancelSteps: [SessionPair.Step] = [
        .qrShown, .scanned, .helloAccepted, .senderConfirmed, .offerReceived, .receiverConfirmed,
        .acceptReceived, .credentialSent, .credentialReceived,
    ]

    @Test(arguments: senderCancelSteps)
    func senderCancelsAtEachStep(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: step)
        let actions = pair.absorbSender(try pair.sender.handle(.cancel, now: Fixtures.start))
        #expect(actions.last?.outcome == .cancelled(by: .local))
        #expect(pair.sender.state == .finished)
        if step >= .helloAccepted {
            // An authenticated abort tells the receiver.
            let abort = try #require(actions.first?.sentFrame)
            #expect(try Frame(bytes: abort).type == .abort)
            let received = try pair.receiver.handle(.frameReceived(abort), now: Fixtures.start)
            #expect(received.last?.outcome == .cancelled(by: .peer))
        } else {
            #expect(kinds(actions) == ["finished(cancelled(by: AccountHandoff.Party.local))"])
        }
        #expect(allZero(pair.sender.guardedSecrets))
        if step >= .helloAccepted { #expect(pair.allSecretsWiped) }
        // Nothing the receiver's app stores arrived unless the credential step was reached.
        #expect((pair.delivered != nil) == (step >= .credentialReceived))
    }

    static let receiverCancelSteps: [SessionPair.Step] = [
        .scanned, .helloAccepted, .senderConfirmed, .offerReceived, .receiverConfirmed,
        .acceptReceived, .credentialSent, .credentialReceived,
    ]

    @Test(arguments: receiverCancelSteps)
    func receiverCancelsAtEachStep(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: step)
        let actions = pair.absorbReceiver(try pair.receiver.handle(.cancel, now: Fixtures.start))
        #expect(actions.last?.outcome == .cancelled(by: .local))
        let abort = try #require(actions.first?.sentFrame)
        let atSender = try pair.sender.handle(.frameReceived(abort), now: Fixtures.start)
        if step >= .helloAccepted {
            #expect(atSender.last?.outcome == .cancelled(by: .peer))
        } else {
            // The sender never accepted a hello, so it has no keys to check the abort: ignored.
            #expect(atSender.first?.ignoredError == .unexpectedMessage(.abort, in: .awaitingHello))
            #expect(pair.sender.state == .awaitingHello)
        }
        #expect(allZero(pair.receiver.guardedSecrets))
    }

    @Test(arguments: [SessionPair.Step.helloAccepted, .senderConfirmed, .acceptReceived])
    func senderRejectsCodeAndReceiverLearnsIt(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: step)
        let actions = pair.absorbSender(try pair.sender.handle(.codeRejected, now: Fixtures.start))
        #expect(actions.last?.outcome == .rejected(by: .local))
        let abort = try #require(actions.first?.sentFrame)
        #expect(try pair.receiver.handle(.frameReceived(abort), now: Fixtures.start).last?.outcome == .rejected(by: .peer))
        #expect(pair.allSecretsWiped)
        #expect(pair.delivered == nil)
    }

    @Test(arguments: [SessionPair.Step.scanned, .helloAccepted, .offerReceived, .receiverConfirmed])
    func receiverRejectsAndNoCredentialTravels(step: SessionPair.Step) throws {
        let pair = try SessionPair()
        try pair.run(until: step)
        let actions = pair.absorbReceiver(try pair.receiver.handle(.codeRejected, now: Fixtures.start))
        #expect(actions.last?.outcome == .rejected(by: .local))
        let abort = try #require(actions.first?.sentFrame)
        if step >= .helloAccepted {
            #expect(try pair.sender.handle(.frameReceived(abort), now: Fixtures.start).last?.outcome == .rejected(by: .peer))
            // The sender can no longer be asked for the credential.
            #expect(throws: HandoffError.sessionFinished) {
                try pair.sender.handle(.credentialProvided(SecretBytes(utf8: "pw")), now: Fixtures.start)
            }
        }
        #expect(pair.delivered == nil)
    }

    @Test func wrongCodeScenarioPeopleRejectAndNothingLeaks() throws {
        // The receiver's person types the code it sees on the sender; a wrong code does not match.
        let pair = try SessionPair()
        try pair.run(until: .offerReceived)
        let code = try #require(pair.senderCode)
        let wrong = String(format: "%06d", (code.value + 1) % 1_000_000)
        #expect(!pair.receiver.shortCode.matches(typed: wrong))
        #expect(pair.receiver.shortCode.matches(typed: code.grouped))
        let actions = pair.absorbReceiver(try pair.receiver.handle(.codeRejected, now: Fixtures.start))
        let abort = try #require(actions.first?.sentFrame)
        #expect(try pair.sender.handle(.frameReceived(abort), now: Fixtures.start).last?.outcome == .rejected(by: .peer))
        #expect(pair.delivered == nil)
        #expect(pair.allSecretsWiped)
    }

    @Test func crossingAbortsEndBothSessions() throws {
        // Both people cancel at the same moment: each abort is bound to TH1, so each still verifies.
        let pair = try SessionPair()
        try pair.run(until: .senderConfirmed)
        let senderAbort = try #require(try pair.sender.handle(.cancel, now: Fixtures.start).first?.sentFrame)
        let receiverAbort = try #require(try pair.receiver.handle(.cancel, now: Fixtures.start).first?.sentFrame)
        #expect(try pair.sender.handle(.frameReceived(receiverAbort), now: Fixtures.start) .first?.ignoredError == .sessionFinished)
        #expect(try pair.receiver.handle(.frameReceived(senderAbort), now: Fixtures.start).first?.ignoredError == .sessionFinished)
        #expect(pair.sender.outcome == .cancelled(by: .local))
        #expect(pair.receiver.outcome == .cancelled(by: .local))
    }

    @Test func abortCrossingTheOfferStillAuthenticates() throws {
        // The receiver cancels before the offer reaches it; the sender already chained the offer.
        let pair = try SessionPair()
        try pair.run(until: .senderConfirmed)
        let receiverAbort = try #require(try pair.receiver.handle(.cancel, now: Fixtures.start).first?.sentFrame)
        #expect(try pair.sender.handle(.frameReceived(receiverAbort), now: Fixtures.start).last?.outcome == .cancelled(by: .peer))
    }
}
