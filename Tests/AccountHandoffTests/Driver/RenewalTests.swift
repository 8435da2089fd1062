import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// Spec 11.8: a sender whose code expires before any receiving device proved it saw it shows
/// a fresh code (new keys, transfer ID and expiry) until its cap; the old code is refused as
/// expired.
@Suite struct RenewalTests {
    /// Three lifetimes: codes 1 and 2 expire unscanned and are replaced; code 3 expires and
    /// ends the session as expired. No key, commitment or transfer ID repeats.
    @Test func threeLifetimesThenExpired() async throws {
        let clock = ManualHandoffClock(start: Fixtures.start)
        let channels = InMemoryFrameChannel.pair()
        let registry = SenderRegistry.inMemory()
        let session = HandoffSenderSession(account: Fixtures.account, rendezvous: Fixtures.rendezvous, channel: channels.sender,
                                           credential: { _ in Fixtures.secret(Fixtures.password) }, authenticator: ScriptedAuthenticator(always: .authenticated),
                                           registry: registry, options: SenderSessionOptions(maximumCodes: 3), clock: clock)
        let shown = Task { () -> [SessionPayload] in
            var payloads: [SessionPayload] = []
            for await update in session.updates {
                if case .showCode(let payload, _, let number) = update {
                    #expect(number == payloads.count + 1)
                    payloads.append(payload)
                }
            }
            return payloads
        }
        let running = Task { await session.run() }
        for lifetime in 1...3 {
            let current = try #require(await session.shownCode())
            #expect(current.expiryDate == Fixtures.time(Fixtures.lifetime * Double(lifetime)))
            while clock.sleeperCount == 0 { await Task.yield() }
            clock.set(current.expiryDate)
            if lifetime < 3 {
                while await session.payload == current { await Task.yield() }
            }
        }
        #expect(await running.value == .ended(.expired))
        let payloads = await shown.value
        #expect(payloads.count == 3)
        #expect(Set(payloads.map(\.transferID)).count == 3)
        #expect(Set(payloads.map(\.commitment)).count == 3)
        #expect(Set(payloads.map(\.senderPublicKey.bytes)).count == 3)
        for payload in payloads {
            #expect(registry.status(of: payload.transferID) == .finished(outcomeIdentifier: "expired"))
        }
    }
}
