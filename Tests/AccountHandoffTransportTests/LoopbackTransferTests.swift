import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Whole sessions over real TCP on 127.0.0.1: the drivers on each end, the listener and the
/// connection behind their frame channels.
@Suite struct LoopbackTransferTests {
    private func sessions(connect: @escaping HandoffReceiverSession.Connector) throws -> (HandoffSenderSession, HandoffReceiverSession, FrameListener) {
        let listener = try FrameListener(configuration: Loopback.sessions)
        let sender = try HandoffSenderSession(account: Loopback.account(), rendezvous: listener.rendezvous.token, channel: listener)
        listener.setKeys(try TransportKeys(payload: sender.payload))
        let receiver = HandoffReceiverSession(payload: sender.payload, importer: AcceptingImporter(), connect: connect)
        return (sender, receiver, listener)
    }

    @Test func completeTransferOverLoopback() async throws {
        let (sender, receiver, _) = try sessions { payload in
            try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.sessions)
        }
        let people = confirmBothSides(sender, receiver)
        async let sent = sender.run()
        async let received = receiver.run()
        let receivedOutcome = await received
        #expect(receivedOutcome == .completed(.imported))
        let sentOutcome = await sent
        #expect(sentOutcome == .completed(.imported))
        await people.value
    }

    @Test func aLostConnectionIsTransportLostOnBothSides() async throws {
        let opened = ChannelHolder()
        let (sender, receiver, _) = try sessions { payload in
            let channel = try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.sessions)
            opened.keep(channel)
            return channel
        }
        let cut = Task {
            for await update in receiver.updates {
                if case .codeReady = update { await opened.closeAll() }
            }
        }
        async let sent = sender.run()
        async let received = receiver.run()
        let sentOutcome = await sent
        #expect(sentOutcome == .ended(.failed(.transportLost)))
        let receivedOutcome = await received
        #expect(receivedOutcome == .ended(.failed(.transportLost)))
        await cut.value
    }

    @Test func senderCancelReachesTheReceiverBeforeTheCleanClose() async throws {
        let (sender, receiver, _) = try sessions { payload in
            try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.sessions)
        }
        let cancel = Task {
            for await update in sender.updates {
                if case .codeReady = update { await sender.cancel() }
            }
        }
        async let sent = sender.run()
        async let received = receiver.run()
        let sentOutcome = await sent
        #expect(sentOutcome == .ended(.cancelled(by: .local)))
        let receivedOutcome = await received
        #expect(receivedOutcome == .ended(.cancelled(by: .peer)))
        await cancel.value
    }

    @Test func junkFromAnAdmittedConnectionIsIgnoredWhileTheSessionWaits() async throws {
        let listener = try FrameListener(configuration: Loopback.sessions)
        let sender = try HandoffSenderSession(account: Loopback.account(), rendezvous: listener.rendezvous.token, channel: listener)
        let keys = try TransportKeys(payload: sender.payload)
        listener.setKeys(keys)
        let junk = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Array(repeating: 0x41, count: 40)))
        defer { junk.close() }
        let watcher = Task { () -> HandoffError? in
            for await update in sender.updates { if case .framesIgnored(_, let last) = update { return last } }
            return nil
        }
        let running = Task { await sender.run() }
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
