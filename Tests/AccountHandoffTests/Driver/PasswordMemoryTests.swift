import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// Spec 6.7, 6.0 step 4: a password that the sender's driver cannot copy into guarded memory
/// ends the session as a step that finds none (`abort(7)`), not as an unreadable keychain;
/// both devices are told the truth, each in its own sentence.
@Suite struct PasswordMemoryTests {
    /// The sender's driver over an in-memory channel, a receiver state machine on the other
    /// end: the gate passes, the keychain read finds no guarded memory.
    @Test(.timeLimit(.minutes(5))) func aPasswordWithNoGuardedMemoryEndsBothDevicesWithTheirMemoryEndings() async throws {
        let clock = ManualHandoffClock(start: Fixtures.start)
        let channels = InMemoryFrameChannel.pair()
        let session = HandoffSenderSession(
            account: Fixtures.account, rendezvous: Fixtures.rendezvous, channel: channels.sender,
            credential: { _ in throw HandoffError.secureMemoryUnavailable(.lockLimitReached) },
            authenticator: ScriptedAuthenticator(always: .authenticated), registry: try SenderRegistry(), clock: clock)
        let running = Task { await session.run() }
        let payload = try #require(await session.shownCode())
        let (receiver, first) = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: Fixtures.receiverSeed),
                                                         now: clock.now())
        var pending = first.actions
        while receiver.outcome == nil {
            var confirm = false
            for action in pending {
                switch action {
                case .send(let frame): try await channels.receiver.send(frame, to: channels.receiver.peer)
                case .showShortCode(let code): #expect(try await session.enterCode(code.digits) == .matched)
                case .showAccount: confirm = true
                case .deliverAccount, .ignored, .finished: break
                }
            }
            if confirm {
                pending = try receiver.handle(.accept, now: clock.now()).actions
                continue
            }
            guard case .frame(let bytes, _)? = try await channels.receiver.receive() else { break }
            pending = try receiver.handle(.frameReceived(bytes), now: clock.now()).actions
        }
        let senderOutcome = await running.value
        #expect(senderOutcome == .ended(.failed(.secureMemoryUnavailable(.lockLimitReached))))
        #expect(receiver.outcome == .ended(.failed(.peerSecureMemoryUnavailable)))
        #expect(senderOutcome.identifier == "failed.secureMemoryUnavailable")
        #expect(receiver.outcome?.identifier == "failed.peerSecureMemoryUnavailable")
        // The last frame the sender sent is the abort (its reason 7 is what gave the receiver its ending).
        #expect(try Frame(bytes: try #require(channels.sender.sentFrames.last)).type == .abort)
    }

    /// The driver's entry point checks the clock and the state first, like any event.
    @Test func theDriversMemoryEndingComesAfterTheClockAndTheState() throws {
        let early = try SessionPair()
        try early.run(until: .helloAccepted)
        #expect(throws: HandoffError.invalidEvent(.credentialProvided, in: .sender(.awaitingCodeConfirmation))) {
            try early.sender.endForWantOfMemory(.lockLimitReached, now: Fixtures.start)
        }
        #expect(early.sender.phase == .awaitingCodeConfirmation)

        let late = try SessionPair()
        try late.run(until: .acceptReceived)
        let expired = try late.sender.endForWantOfMemory(.lockLimitReached, now: late.sender.expiryDate)
        #expect(expired.kinds == ["send(abort)", "finished(expired)"])

        let ready = try SessionPair()
        try ready.run(until: .acceptReceived)
        let ended = ready.absorbSender(try ready.sender.endForWantOfMemory(.lockLimitReached, now: Fixtures.start))
        #expect(ended.kinds == ["send(abort)", "finished(failed.secureMemoryUnavailable)"])
        #expect(try ready.receive(.frameReceived(ready.senderFrames.last!)).kinds == ["finished(failed.peerSecureMemoryUnavailable)"])
        #expect(ready.sender.guardedSecrets.allSatisfy { $0.isAllZero })
        #expect(throws: HandoffError.sessionFinished) { try ready.sender.endForWantOfMemory(.lockLimitReached, now: Fixtures.start) }
    }

    /// Each person is told which device ran out of protected memory and what to do next.
    @Test func eachPersonIsToldWhichDeviceRanOutAndWhatToDo() {
        let sender = SenderOutcome.ended(.failed(.peerSecureMemoryUnavailable)).message
        #expect(sender == "The transfer failed: The receiving device ran out of protected memory for the transfer's secrets, so it "
            + "stopped the transfer; close other apps on it or restart it, then start a new transfer. The password was not sent.")
        let receiver = ReceiverOutcome.ended(.failed(.peerSecureMemoryUnavailable)).message
        #expect(receiver == "The transfer failed: The sending device ran out of protected memory for the transfer's secrets, so it "
            + "stopped the transfer before the password was sent; close other apps on it or restart it, then ask the sending device "
            + "for a new code. Nothing was imported.")
        let afterDelivery = SenderOutcome.deliveredUnconfirmed(.failed(.peerSecureMemoryUnavailable)).message
        #expect(afterDelivery.hasPrefix("The password was sent to the receiving device, but it ran out of protected memory while the "
            + "password was on its way (it reports that it could not take it), so this device cannot tell whether it was imported."))
        let ownAfterDelivery = SenderOutcome.deliveredUnconfirmed(.failed(.secureMemoryUnavailable(.capReached))).message
        #expect(ownAfterDelivery.hasPrefix("The password was sent to the receiving device, but this device ran out of protected memory "
            + "before it could read its confirmation, so"))
        #expect(HandoffError.peerSecureMemoryUnavailable.identifier == "peerSecureMemoryUnavailable")
        #expect(SessionEnd.failed(.peerSecureMemoryUnavailable).error == .peerSecureMemoryUnavailable)
    }
}
