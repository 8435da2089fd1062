import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// Cancelling the task that awaits `run()` (what SwiftUI's `.task` does when a screen goes
/// away) is a cancel on that device: both devices end as cancelled, the QR's transfer is
/// consumed in the sender's registry (a receiver that joins later is refused), and no renewal
/// follows. Over the in-memory channel; LoopbackTaskCancellationTests and TransitRelayTests play
/// the same over TCP and through the relay.
@Suite struct TaskCancellationTests {
    private struct Devices {
        let clock = ManualHandoffClock(start: Fixtures.start)
        let channels = InMemoryFrameChannel.pair()
        let registry: SenderRegistry
        let sender: HandoffSenderSession

        init(maximumCodes: Int = 1) throws {
            registry = SenderRegistry.inMemory()
            sender = HandoffSenderSession(account: Fixtures.account, rendezvous: Fixtures.rendezvous, channel: channels.sender,
                                          credential: { _ in Fixtures.secret(Fixtures.password) },
                                          authenticator: ScriptedAuthenticator(always: .authenticated), registry: registry,
                                          options: SenderSessionOptions(maximumCodes: maximumCodes), clock: clock)
        }

        func receiver(_ payload: SessionPayload) throws -> HandoffReceiverSession<RecordingImporter> {
            let channel = channels.receiver
            return HandoffReceiverSession(payload: payload, importer: RecordingImporter(),
                                          authenticator: ScriptedAuthenticator(always: .authenticated),
                                          registry: ReceiverRegistry.inMemory(), clock: clock) { _ in channel }
        }

        /// A receiver's hello for `payload` is refused by the sender's registry: the QR is withdrawn.
        func laterHelloIsRefused(_ payload: SessionPayload) throws {
            let (_, step) = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 99), now: clock.now())
            guard case .send(let hello)? = step.actions.first else { throw CancellationError() }
            #expect(throws: HandoffError.transferConsumed) { try registry.admit(frame: hello, now: clock.now()) }
        }
    }

    /// Before any receiver joined: the sender ends cancelled, its transfer is consumed, and a
    /// code that expires afterwards is not renewed (one code shown, although three were allowed).
    @Test func cancellingTheSenderTaskWithdrawsTheQR() async throws {
        let devices = try Devices(maximumCodes: 3)
        let sender = devices.sender
        let shown = Task { () -> Int in
            var codes = 0
            for await update in sender.updates { if case .showCode = update { codes += 1 } }
            return codes
        }
        let running = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        running.cancel()
        #expect(await running.value == .ended(.cancelled(by: .local)))
        #expect(await running.value.passwordLeft == .no)
        devices.clock.set(payload.expiryDate.addingTimeInterval(1))
        #expect(await shown.value == 1)
        #expect(devices.registry.status(of: payload.transferID) == .finished(outcomeIdentifier: "cancelled.local"))
        try devices.laterHelloIsRefused(payload)
    }

    /// A task cancelled before `run()` starts ends the run at once, without a QR.
    @Test func aTaskCancelledBeforeRunShowsNoCode() async throws {
        let devices = try Devices()
        let sender = devices.sender
        let running = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await sender.run()
        }
        #expect(await running.value == .ended(.cancelled(by: .local)))
        #expect(await sender.shownCode() == nil)
    }

    /// After the receiver joined: the receiving device is told (abort, cancelled).
    @Test func cancellingTheSenderTaskAfterTheJoinCancelsBothDevices() async throws {
        let devices = try Devices()
        let sender = devices.sender
        let running = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        let receiver = try devices.receiver(payload)
        let cancelling = Task {
            for await update in sender.updates where update.isReceiverJoined { running.cancel() }
        }
        let received = await receiver.run()
        #expect(received == .ended(.cancelled(by: .peer)))
        #expect(received.passwordArrived == .no)
        #expect(await running.value == .ended(.cancelled(by: .local)))
        await cancelling.value
        try devices.laterHelloIsRefused(payload)
    }

    /// The receiving screen goes away while the account is offered: the sending device is told.
    @Test func cancellingTheReceiverTaskAtTheOfferCancelsBothDevices() async throws {
        let devices = try Devices()
        let sender = devices.sender
        let running = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        let receiver = try devices.receiver(payload)
        let receiving = Task { await receiver.run() }
        let screen = ReceivingScreen()
        let sendingPerson = Task {
            for await update in sender.updates where update.isReceiverJoined {
                if let code = await screen.read() { _ = try? await sender.enterCode(code.grouped) }
            }
        }
        for await update in receiver.updates {
            switch update {
            case .codeReady(let code): await screen.show(code)
            case .accountOffered: receiving.cancel()
            default: break
            }
        }
        await screen.close()
        #expect(await receiving.value == .ended(.cancelled(by: .local)))
        #expect(await running.value == .ended(.cancelled(by: .peer)))
        await sendingPerson.value
        try devices.laterHelloIsRefused(payload)
    }

    /// A receiver whose connector is still waiting (a relay that has not paired yet) stops
    /// waiting when its task is cancelled.
    @Test func cancellingTheReceiverTaskWhileConnectingEndsIt() async throws {
        let devices = try Devices()
        let payload = try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                              random: InsecureDeterministicRandom(seed: 5), now: Fixtures.start).payload
        let (called, connectorCalled) = AsyncStream.makeStream(of: Void.self)
        let receiver = HandoffReceiverSession(payload: payload, importer: RecordingImporter(),
                                              authenticator: ScriptedAuthenticator(always: .authenticated),
                                              registry: ReceiverRegistry.inMemory(), clock: devices.clock) { _ in
            connectorCalled.yield()
            try await Task.sleep(for: .seconds(86_400))
            throw CancellationError()
        }
        let receiving = Task { await receiver.run() }
        for await _ in called { break }
        receiving.cancel()
        #expect(await receiving.value == .ended(.cancelled(by: .local)))
    }
}

extension SenderUpdate {
    /// Whether this is ``SenderUpdate/receiverJoined``.
    fileprivate var isReceiverJoined: Bool {
        if case .receiverJoined = self { true } else { false }
    }
}
