import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Whole sessions over real TCP on 127.0.0.1: the drivers on each end, the listener and the
/// connection behind their frame channels.
@Suite struct LoopbackTransferTests {
    /// A running sender on a listener, and a receiver for the QR it shows.
    private func sessions(connect: @escaping TestReceiver.Connector) async throws
        -> (HandoffSenderSession, TestReceiver, Task<SenderOutcome, Never>) {
        let listener = try FrameListener(configuration: Loopback.sessions)
        let sender = try testSender(rendezvous: listener.rendezvous.token, channel: listener)
        let sent = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        return (sender, try testReceiver(payload, connect: connect), sent)
    }

    @Test func completeTransferOverLoopback() async throws {
        let (sender, receiver, sent) = try await sessions { payload in
            try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.sessions)
        }
        let people = confirmBothSides(sender, receiver)
        let receivedOutcome = await receiver.run()
        #expect(receivedOutcome == .completed(.imported))
        let sentOutcome = await sent.value
        #expect(sentOutcome == .completed(.imported))
        await people.value
    }

    @Test func aLostConnectionIsTransportLostOnBothSides() async throws {
        let opened = ChannelHolder()
        let (_, receiver, sent) = try await sessions { payload in
            let channel = try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.sessions)
            opened.keep(channel)
            return channel
        }
        let cut = Task {
            for await update in receiver.updates {
                if case .codeReady = update { await opened.closeAll() }
            }
        }
        let receivedOutcome = await receiver.run()
        #expect(receivedOutcome == .ended(.failed(.transportLost)))
        let sentOutcome = await sent.value
        #expect(sentOutcome == .ended(.failed(.transportLost)))
        await cut.value
    }

    @Test func senderCancelReachesTheReceiverBeforeTheCleanClose() async throws {
        let (sender, receiver, sent) = try await sessions { payload in
            try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.sessions)
        }
        let cancel = Task {
            for await update in sender.updates {
                if case .receiverJoined = update { await sender.cancel() }
            }
        }
        let receivedOutcome = await receiver.run()
        #expect(receivedOutcome == .ended(.cancelled(by: .peer)))
        let sentOutcome = await sent.value
        #expect(sentOutcome == .ended(.cancelled(by: .local)))
        await cancel.value
    }

    @Test func junkFromAnAdmittedConnectionIsIgnoredWhileTheSessionWaits() async throws {
        let listener = try FrameListener(configuration: Loopback.sessions)
        let sender = try testSender(rendezvous: listener.rendezvous.token, channel: listener)
        let watcher = Task { () -> HandoffError? in
            for await update in sender.updates { if case .framesIgnored(_, let last) = update { return last } }
            return nil
        }
        let running = Task { await sender.run() }
        let keys = try TransportKeys(payload: try #require(await sender.shownCode()))
        let junk = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Array(repeating: 0x41, count: 40)))
        defer { junk.close() }
        #expect(await watcher.value == .unsupportedVersion(0x41))
        #expect(await sender.phase == .awaitingHello)
        await sender.cancel()
        #expect(await running.value == .ended(.cancelled(by: .local)))
    }
}

/// Keeps the channels a connector opened, so a test can cut them.
private final class ChannelHolder: @unchecked Sendable {
    // Safety of @unchecked Sendable: `channels` is only touched under `lock`.
    private let lock = NSLock()
    private var channels: [any FrameChannel] = []
    func keep(_ channel: any FrameChannel) { lock.withLock { channels.append(channel) } }
    func closeAll() async {
        for channel in lock.withLock({ channels }) { await channel.close() }
    }
}
