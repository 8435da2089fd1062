import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Wraps a receiver's channel and runs `beforeFirstSend` with the hello before it goes out.
private final class InterceptingChannel: FrameChannel, @unchecked Sendable {
    // Safety of @unchecked Sendable: `intercepted` is only touched under `lock`; the rest is immutable.
    private let inner: any FrameChannel
    private let beforeFirstSend: @Sendable ([UInt8]) async -> Void
    private let lock = NSLock()
    private var intercepted = false

    init(_ inner: any FrameChannel, beforeFirstSend: @escaping @Sendable ([UInt8]) async -> Void) {
        self.inner = inner
        self.beforeFirstSend = beforeFirstSend
    }

    func receive() async throws -> FrameChannelEvent? { try await inner.receive() }
    func send(_ frame: [UInt8], to peer: FramePeer) async throws {
        let first = lock.withLock { () -> Bool in
            defer { intercepted = true }
            return !intercepted
        }
        if first { await beforeFirstSend(frame) }
        try await inner.send(frame, to: peer)
    }
    func close() async { await inner.close() }
}

/// Whole sessions over real TCP on 127.0.0.1: the drivers on each end, the listener and the
/// connection behind their frame channels.
@Suite struct LoopbackTransferTests {
    private typealias Receiver = HandoffReceiverSession<RecordingImporter>

    private func sender() throws -> (HandoffSenderSession, TCPRendezvous) {
        let listener = try FrameListener(random: SystemRandomSource(), configuration: Loopback.sessions)
        let rendezvous = listener.rendezvous
        let sender = HandoffSenderSession(account: try Loopback.account(), rendezvous: rendezvous.token,
                                          channel: ListenerFrameChannel.serving(listener),
                                          credential: { _ in try SecretBytes(utf8: "correct horse") },
                                          authenticator: ScriptedAuthenticator(always: .authenticated), registry: try SenderRegistry())
        return (sender, rendezvous)
    }

    /// A sender running, and a receiver for the QR it shows.
    private func sessions(connect: @escaping Receiver.Connector) async throws
        -> (HandoffSenderSession, Receiver, Task<SenderOutcome, Never>, TCPRendezvous) {
        let (sender, rendezvous) = try sender()
        let running = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        let receiver = Receiver(payload: payload, importer: RecordingImporter(), authenticator: ScriptedAuthenticator(always: .authenticated),
                                registry: try ReceiverRegistry(), connect: connect)
        return (sender, receiver, running, rendezvous)
    }

    @Test func completeTransferOverLoopback() async throws {
        let (sender, receiver, sent, _) = try await sessions { payload in
            try ConnectionFrameChannel.connect(to: payload.rendezvous, configuration: Loopback.sessions)
        }
        let people = People.confirmBoth(sender, receiver)
        let receivedOutcome = await receiver.run()
        #expect(receivedOutcome == .completed(.imported))
        let sentOutcome = await sent.value
        #expect(sentOutcome == .completed(.imported))
        await people.value
    }

    /// Spec 6.7: the hello is public, so a copy of it can reach the sender on another
    /// connection, even before the real one. In either order the real receiver completes.
    @Test(arguments: [true, false]) func aCopyOfTheHelloOnAnotherConnectionChangesNothing(copyFirst: Bool) async throws {
        let copies = CopyHolder()
        let (sender, receiver, sent, rendezvous) = try await sessions { payload in
            let real = try ConnectionFrameChannel.connect(to: payload.rendezvous, configuration: Loopback.sessions)
            return InterceptingChannel(real) { hello in
                // An observer copies the hello and replays it on its own connection.
                guard let copy = try? Loopback.rawConnection(to: TCPRendezvous(token: payload.rendezvous),
                                                           sending: TCPRendezvous(token: payload.rendezvous).preamble) else { return }
                copies.keep(copy)
                if copyFirst {
                    try? copy.writeAll(FrameStream.encode(hello), until: .now + .seconds(1))
                    try? await Task.sleep(nanoseconds: 100_000_000)
                } else {
                    Task {
                        try? await Task.sleep(nanoseconds: 100_000_000)
                        try? copy.writeAll(FrameStream.encode(hello), until: .now + .seconds(1))
                    }
                }
            }
        }
        _ = rendezvous
        let people = People.confirmBoth(sender, receiver)
        let receivedOutcome = await receiver.run()
        #expect(receivedOutcome == .completed(.imported))
        let sentOutcome = await sent.value
        #expect(sentOutcome == .completed(.imported))
        await people.value
        copies.closeAll()
    }

    @Test func aLostConnectionIsTransportLostOnBothSides() async throws {
        let opened = ChannelHolder()
        let (sender, receiver, sent, _) = try await sessions { payload in
            let channel = try ConnectionFrameChannel.connect(to: payload.rendezvous, configuration: Loopback.sessions)
            opened.keep(channel)
            return channel
        }
        _ = sender
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
        let (sender, receiver, sent, _) = try await sessions { payload in
            try ConnectionFrameChannel.connect(to: payload.rendezvous, configuration: Loopback.sessions)
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

    @Test func junkFromATaggedConnectionIsIgnoredWhileTheSessionWaits() async throws {
        let (sender, rendezvous) = try sender()
        let junk = try Loopback.rawConnection(to: rendezvous, sending: rendezvous.preamble + FrameStream.encode(Array(repeating: 0x41, count: 40)))
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

/// Keeps raw sockets open for the test's duration.
private final class CopyHolder: @unchecked Sendable {
    // Safety of @unchecked Sendable: `sockets` is only touched under `lock`.
    private let lock = NSLock()
    private var sockets: [POSIXSocket] = []
    func keep(_ socket: POSIXSocket) { lock.withLock { sockets.append(socket) } }
    func closeAll() { lock.withLock { sockets.forEach { $0.close() } } }
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
