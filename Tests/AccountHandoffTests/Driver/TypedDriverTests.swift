import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// The session drivers with the typed way (Spec 6.8) over the in-memory channel: the sender
/// shows the typed code beside the QR in one update, serves its nameplate, answers a typed
/// connection with a run, and pairs; the receiver session starts from a typed code.
@Suite struct TypedDriverTests {
    static func sender(_ channel: any FrameChannel, clock: ManualHandoffClock, seed: UInt64 = 7,
                       routes: Set<TypedRoute> = [.localNetwork, .relay]) -> HandoffSenderSession {
        HandoffSenderSession(account: Fixtures.account, rendezvous: Fixtures.rendezvous, channel: channel,
                             credential: { _ in Fixtures.secret(Fixtures.password) },
                             authenticator: ScriptedAuthenticator(always: .authenticated), registry: SenderRegistry.inMemory(),
                             options: SenderSessionOptions(typedRoutes: routes), clock: clock,
                             random: InsecureDeterministicRandom(seed: seed))
    }

    @Test(arguments: [TypedRoute.localNetwork, .relay])
    func aTypedCodeShownBesideTheQRPairsAndTheAccountArrives(route: TypedRoute) async throws {
        let channels = InMemoryFrameChannel.typedPair(route: route)
        let clock = ManualHandoffClock(start: Fixtures.start)
        let sender = Self.sender(channels.sender, clock: clock)
        var updates = sender.updates.makeAsyncIterator()
        let sent = Task { await sender.run() }
        guard case .showCode(_, let shownTyped, 1) = try #require(await updates.next()) else {
            Issue.record("the first update shows the codes")
            return
        }
        let typed = try #require(shownTyped, "the typed code comes in the same update as the QR")
        #expect(channels.sender.servedOffers.first == TypedOffer(nameplate: typed.nameplate, routes: [.localNetwork, .relay]))

        let receiverChannel = channels.receiver
        let registry = ReceiverRegistry.inMemory()
        let receiver = HandoffReceiverSession(typedCode: try TypedCode(entry: typed.grouped), route: route,
                                              importer: RecordingImporter(), authenticator: ScriptedAuthenticator(always: .authenticated),
                                              registry: registry, clock: clock,
                                              random: InsecureDeterministicRandom(seed: 11)) { nameplate, asked in
            #expect(nameplate == typed.nameplate && asked == route)
            return receiverChannel
        }
        #expect(receiver.payload == nil)
        let receiving = Task {
            for await update in receiver.updates {
                if case .accountOffered = update { try? await receiver.accept() }
            }
        }
        typed.wipe()
        #expect(await receiver.run() == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        await receiving.value
        var rest: [String] = []
        while let update = await updates.next() { rest.append("\(update)".components(separatedBy: "(").first ?? "") }
        #expect(rest.contains("pairedByTypedCode"))
        #expect(!rest.contains("receiverJoined"))  // nobody typed a six-digit code
        #expect(channels.sender.servedOffers.last == .some(nil))  // the typed way is withdrawn once paired
        #expect(await receiver.phase == .finished)
    }

    /// A typed receiver knows the sending device's expiry only from its `pakeInit` (Spec 6.8):
    /// its first `connected` holds this device's own bound, a second one the sender's, and the
    /// snapshot's countdown follows.
    @Test func theTypedReceiversCountdownTakesTheSendersExpiry() async throws {
        let channels = InMemoryFrameChannel.typedPair(route: .localNetwork)
        let clock = ManualHandoffClock(start: Fixtures.start)
        let sender = Self.sender(channels.sender, clock: clock)
        var updates = sender.updates.makeAsyncIterator()
        let sent = Task { await sender.run() }
        guard case .showCode(let payload, let shownTyped, 1) = try #require(await updates.next()) else {
            Issue.record("the first update shows the codes")
            return
        }
        let typed = try #require(shownTyped)
        let receiverChannel = channels.receiver
        let receiver = HandoffReceiverSession(typedCode: try TypedCode(entry: typed.grouped), route: .localNetwork,
                                              importer: RecordingImporter(), authenticator: ScriptedAuthenticator(always: .authenticated),
                                              registry: ReceiverRegistry.inMemory(), clock: clock,
                                              random: InsecureDeterministicRandom(seed: 11)) { _, _ in receiverChannel }
        typed.wipe()
        let receiving = Task {
            var countdowns: [Date] = []
            for await update in receiver.updates {
                if case .connected(let expires) = update { countdowns.append(expires) }
                if case .accountOffered = update {
                    #expect(receiver.snapshot.expires == payload.expiryDate)
                    try? await receiver.accept()
                }
            }
            return countdowns
        }
        #expect(await receiver.run() == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        let ownBound = Fixtures.start.addingTimeInterval(Double(SenderConfiguration.maximumLifetime))
        #expect(payload.expiryDate != ownBound, "the fixture's lifetime must differ from the longest for this test to mean anything")
        #expect(await receiving.value == [ownBound, payload.expiryDate])
        #expect(receiver.snapshot.expires == payload.expiryDate)
    }

    /// The same code typed again on this device is refused before any connection (Spec 6.3.1).
    @Test func aCodeThisDeviceRanIsRefusedWithoutAConnection() async throws {
        let channels = InMemoryFrameChannel.typedPair(route: .localNetwork)
        let clock = ManualHandoffClock(start: Fixtures.start)
        let sender = Self.sender(channels.sender, clock: clock)
        let sent = Task { await sender.run() }
        var updates = sender.updates.makeAsyncIterator()
        guard case .showCode(_, let shownTyped, _) = try #require(await updates.next()), let typed = shownTyped else {
            Issue.record("no typed code shown")
            return
        }
        let registry = ReceiverRegistry.inMemory()
        let receiverChannel = channels.receiver
        let first = HandoffReceiverSession(typedCode: try TypedCode(entry: typed.digits), route: .localNetwork,
                                           importer: RecordingImporter(), authenticator: ScriptedAuthenticator(always: .authenticated),
                                           registry: registry, clock: clock) { _, _ in receiverChannel }
        let receiving = Task { for await update in first.updates { if case .accountOffered = update { try? await first.accept() } } }
        #expect(await first.run() == .completed(.imported))
        await receiving.value
        _ = await sent.value
        let again = HandoffReceiverSession(typedCode: try TypedCode(entry: typed.digits), route: .localNetwork,
                                           importer: RecordingImporter(), authenticator: ScriptedAuthenticator(always: .authenticated),
                                           registry: registry, clock: clock) { _, _ in
            Issue.record("a used code must not connect")
            return receiverChannel
        }
        #expect(await again.run() == .ended(.failed(.typedCodeAlreadyUsed)))
        typed.wipe()
    }
}

/// Wrong guesses through the drivers (Spec 6.8, 8.8): one guess per code, a new code shown
/// at once with its sentence on the sending device, the guessing device told the code did not
/// match; the new code then pairs.
@Suite struct TypedWrongGuessDriverTests {
    @Test func aWrongGuessRetiresTheCodeOnBothScreensAndTheNewCodePairs() async throws {
        let hub = InMemoryTypedHub()
        let clock = ManualHandoffClock(start: Fixtures.start)
        let sender = TypedDriverTests.sender(hub, clock: clock, seed: 5, routes: [.localNetwork])
        var updates = sender.updates.makeAsyncIterator()
        let sent = Task { await sender.run() }
        guard case .showCode(_, let shown, _) = try #require(await updates.next()), let first = shown else {
            Issue.record("no typed code shown")
            return
        }
        // A device types another code with the same nameplate: one guess.
        let ten = first.digits.prefix(3) + (first.digits.dropFirst(3).prefix(7) == "0000000" ? "0000001" : "0000000")
        let wrong = String(ten) + String(DammCheckDigit.interim(String(ten)))
        let guesserChannel = hub.connect(route: .localNetwork)
        let guesser = HandoffReceiverSession(typedCode: try TypedCode(entry: wrong), route: .localNetwork,
                                             importer: RecordingImporter(), authenticator: ScriptedAuthenticator(always: .authenticated),
                                             registry: ReceiverRegistry.inMemory(), clock: clock,
                                             random: InsecureDeterministicRandom(seed: 6)) { _, _ in guesserChannel }
        #expect(await guesser.run() == .ended(.failed(.typedCodeMismatch)))
        #expect(HandoffError.typedCodeMismatch.message(for: .receiver).hasPrefix("The code did not match the device this one reached"))
        guard case .typedCodeRetired(let second, 1) = try #require(await updates.next()) else {
            Issue.record("the sending device says a wrong code was tried")
            return
        }
        #expect(second.digits != first.digits)
        #expect(hub.servedOffers.last == .some(TypedOffer(nameplate: second.nameplate, routes: [.localNetwork])))

        let honestChannel = hub.connect(route: .localNetwork)
        let honest = HandoffReceiverSession(typedCode: try TypedCode(entry: second.grouped), route: .localNetwork,
                                            importer: RecordingImporter(), authenticator: ScriptedAuthenticator(always: .authenticated),
                                            registry: ReceiverRegistry.inMemory(), clock: clock,
                                            random: InsecureDeterministicRandom(seed: 8)) { _, _ in honestChannel }
        let accepting = Task { for await update in honest.updates { if case .accountOffered = update { try? await honest.accept() } } }
        #expect(await honest.run() == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        await accepting.value
        first.wipe()
        second.wipe()
    }
}

/// The typed way's count of wrong guesses belongs to the sending session, not to one QR
/// (Spec 6.8, 8.8): a QR renewed after two wrong guesses withdraws the typed way at the next
/// one, and a QR renewed after the withdrawal offers no typed code.
@Suite struct TypedRenewalDriverTests {
    /// A device types a code with `code`'s nameplate and another secret: one wrong guess.
    static func guessWrong(against code: TypedCode, hub: InMemoryTypedHub, clock: ManualHandoffClock, seed: UInt64) async throws -> ReceiverOutcome {
        let ten = code.digits.prefix(3) + (code.digits.dropFirst(3).prefix(7) == "0000000" ? "0000001" : "0000000")
        let channel = hub.connect(route: .localNetwork)
        let guesser = HandoffReceiverSession(typedCode: try TypedCode(entry: String(ten) + String(DammCheckDigit.interim(String(ten)))),
                                             route: .localNetwork, importer: RecordingImporter(),
                                             authenticator: ScriptedAuthenticator(always: .authenticated),
                                             registry: ReceiverRegistry.inMemory(), clock: clock,
                                             random: InsecureDeterministicRandom(seed: seed)) { _, _ in channel }
        return await guesser.run()
    }

    @Test func aRenewedQRKeepsTheSessionsWrongGuesses() async throws {
        let hub = InMemoryTypedHub()
        let clock = ManualHandoffClock(start: Fixtures.start)
        let sender = TypedDriverTests.sender(hub, clock: clock, seed: 5, routes: [.localNetwork])
        var updates = sender.updates.makeAsyncIterator()
        let sent = Task { await sender.run() }
        guard case .showCode(_, let shown?, 1)? = await updates.next() else {
            Issue.record("no typed code shown")
            return
        }
        var code = shown
        for guess in 1...2 {
            #expect(try await Self.guessWrong(against: code, hub: hub, clock: clock, seed: UInt64(10 + guess)) == .ended(.failed(.typedCodeMismatch)))
            guard case .typedCodeRetired(let next, guess)? = await updates.next() else {
                Issue.record("wrong guess \(guess) retires the code")
                return
            }
            code.wipe()
            code = next
        }
        code.wipe()
        clock.advance(by: TimeInterval(SenderSessionOptions.standard.configuration.lifetime) + 1)  // unscanned: a new QR
        guard case .showCode(_, let renewed?, 2)? = await updates.next() else {
            Issue.record("the renewed QR comes with a typed code")
            return
        }
        #expect(try await Self.guessWrong(against: renewed, hub: hub, clock: clock, seed: 13) == .ended(.failed(.typedCodeMismatch)))
        guard case .typedWayWithdrawn(.wrongGuesses)? = await updates.next() else {
            Issue.record("the session's third wrong guess withdraws the typed way")
            return
        }
        renewed.wipe()
        #expect(hub.servedOffers.last == .some(nil))
        clock.advance(by: TimeInterval(SenderSessionOptions.standard.configuration.lifetime) + 1)
        guard case .showCode(_, let none, 3)? = await updates.next() else {
            Issue.record("a third QR")
            return
        }
        #expect(none == nil, "a withdrawn typed way stays withdrawn")
        #expect(hub.servedOffers.last == .some(nil))
        #expect(sender.snapshot.typedCode == nil && sender.snapshot.typedWayWithdrawn == .wrongGuesses && sender.snapshot.typedWrongGuesses == 2)
        await sender.cancel()
        #expect(await sent.value == .ended(.cancelled(by: .local)))
    }
}
