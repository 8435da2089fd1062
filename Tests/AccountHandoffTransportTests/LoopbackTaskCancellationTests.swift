import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Cancelling the task that awaits `run()` over real TCP on 127.0.0.1: both devices end as
/// cancelled, the listener is closed, and a receiver that scans the same QR afterwards cannot
/// reach the sender.
@Suite struct LoopbackTaskCancellationTests {
    private struct Devices {
        let listener: FrameListener
        let sender: HandoffSenderSession
        let running: Task<SenderOutcome, Never>
        let payload: SessionPayload

        init() async throws {
            listener = try FrameListener(configuration: Loopback.sessions)
            sender = try testSender(rendezvous: listener.rendezvous.token, channel: listener, maximumCodes: 3)
            let sender = self.sender
            running = Task { await sender.run() }
            payload = try #require(await sender.shownCode())
        }

        func receiver() throws -> TestReceiver {
            try testReceiver(payload) { payload in
                try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.sessions)
            }
        }

        /// A receiver that scans the withdrawn QR finds nobody listening.
        func laterReceiverIsRefused() async throws {
            #expect(await listener.openConnectionCount == 0)
            #expect(await (try receiver()).run() == .ended(.failed(.senderUnreachable)))
        }
    }

    @Test func cancellingTheSenderTaskBeforeAnyReceiverClosesTheListener() async throws {
        let devices = try await Devices()
        devices.running.cancel()
        #expect(await devices.running.value == .ended(.cancelled(by: .local)))
        try await devices.laterReceiverIsRefused()
    }

    @Test func cancellingTheSenderTaskAfterTheJoinCancelsBothDevices() async throws {
        let devices = try await Devices()
        let receiver = try devices.receiver()
        let sender = devices.sender
        let running = devices.running
        let cancelling = Task {
            for await update in sender.updates {
                if case .receiverJoined = update { running.cancel() }
            }
        }
        #expect(await receiver.run() == .ended(.cancelled(by: .peer)))
        #expect(await running.value == .ended(.cancelled(by: .local)))
        await cancelling.value
        try await devices.laterReceiverIsRefused()
    }

    @Test func cancellingTheReceiverTaskAtTheOfferCancelsBothDevices() async throws {
        let devices = try await Devices()
        let receiver = try devices.receiver()
        let receiving = Task { await receiver.run() }
        let people = confirmBothSides(devices.sender, receiver) {
            receiving.cancel()
            _ = await receiving.value
        }
        #expect(await receiving.value == .ended(.cancelled(by: .local)))
        #expect(await devices.running.value == .ended(.cancelled(by: .peer)))
        await people.value
        try await devices.laterReceiverIsRefused()
    }
}
