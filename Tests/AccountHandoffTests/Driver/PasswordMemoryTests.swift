import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// Spec 6.7, 8.5: the password is the app's own secret, read into guarded memory of its own;
/// a reader that finds none cannot read the password, which ends the session as this device's
/// store failing (`abort(4)`): both devices are told so, and nothing was sent.
@Suite struct PasswordMemoryTests {
    /// The sender's driver over an in-memory channel, a receiver state machine on the other
    /// end: the gate passes, the keychain read finds no guarded memory.
    @Test(.timeLimit(.minutes(10))) func aPasswordWithNoGuardedMemoryEndsAsTheSendersStoreFailing() async throws {
        let clock = ManualHandoffClock(start: Fixtures.start)
        let channels = InMemoryFrameChannel.pair()
        let session = HandoffSenderSession(
            account: Fixtures.account, rendezvous: Fixtures.rendezvous, channel: channels.sender,
            credential: { _ in throw HandoffError.secureMemoryUnavailable(.lockLimitReached) },
            authenticator: ScriptedAuthenticator(always: .authenticated), registry: SenderRegistry.inMemory(), clock: clock)
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
        #expect(senderOutcome == .ended(.storeUnavailable(by: .local)))
        #expect(receiver.outcome == .ended(.storeUnavailable(by: .peer)))
        // The last frame the sender sent is the abort (its reason 4 is what gave the receiver its ending).
        #expect(try Frame(bytes: try #require(channels.sender.sentFrames.last)).type == .abort)
    }
}
