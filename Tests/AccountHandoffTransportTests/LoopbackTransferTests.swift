import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Stores nothing; reports an import.
private struct AcceptingImporter: AccountImporter {
    func importAccount(_ account: ImportedAccount) async -> ReceiptStatus {
        account.credential.wipe()
        return .imported
    }
}

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

/// Answers for both people: compare the codes, confirm, provide the password.
private func confirmBothSides(_ sender: HandoffSenderSession, _ receiver: HandoffReceiverSession) -> Task<Void, Never> {
    Task {
        let senderSide = Task {
            for await update in sender.updates {
                if case .codeReady = update { try? await sender.confirmCode() }
                if case .credentialRequested = update { try? await sender.provideCredential(SecretBytes(utf8: "correct horse")) }
            }
        }
        for await update in receiver.updates {
            if case .accountOffered = update { try? await receiver.accept() }
        }
        await senderSide.value
    }
}

/// Whole sessions over real TCP on 127.0.0.1: the drivers on each end, the listener and the
/// connection behind their frame channels.
@Suite struct LoopbackTransferTests {
    private func sessions(connect: @escaping HandoffReceiverSession.Connector) throws -> (HandoffSenderSession, HandoffReceiverSession, TCPRendezvous) {
        let listener = try FrameListener(random: SystemRandomSource(), configuration: Loopback.sessions)
        let rendezvous = listener.rendezvous
        let sender = try HandoffSenderSession(account: Loopback.account(), rendezvous: rendezvous.token,
                                              channel: ListenerFrameChannel.serving(listener))
        let receiver = HandoffReceiverSession(payload: sender.payload, importer: AcceptingImporter(), connect: connect)
        return (sender, receiver, rendezvous)
    }

    @Test func completeTransferOverLoopback() async throws {
        let (sender, receiver, _) = try sessions { payload in
            try ConnectionFrameChannel.connect(to: payload.rendezvous, configuration: Loopback.sessions)
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

    /// Spec 6.7: the hello is public, so a copy of it can reach the sender on another
    /// connection, even before the real one. In either order the real receiver completes.
    @Test(arguments: [true, false]) func aCopyOfTheHelloOnAnotherConnectionChangesNothing(copyFirst: Bool) async throws {
        let copies = CopyHolder()
        let (sender, receiver, rendezvous) = try sessions { payload in
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
        let people = confirmBothSides(sender, receiver)
        async let sent = sender.run()
        async let received = receiver.run()
        let receivedOutcome = await received
        #expect(receivedOutcome == .completed(.imported))
        let sentOutcome = await sent
        #expect(sentOutcome == .completed(.imported))
        await people.value
        copies.closeAll()
    }

    @Test func aLostConnectionIsTransportLostOnBothSides() async throws {
        let opened = ChannelHolder()
        let (sender, receiver, _) = try sessions { payload in
            let channel = try ConnectionFrameChannel.connect(to: payload.rendezvous, configuration: Loopback.sessions)
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
            try ConnectionFrameChannel.connect(to: payload.rendezvous, configuration: Loopback.sessions)
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

    @Test func junkFromATaggedConnectionIsIgnoredWhileTheSessionWaits() async throws {
        let listener = try FrameListener(random: SystemRandomSource(), configuration: Loopback.sessions)
        let rendezvous = listener.rendezvous
        let sender = try HandoffSenderSession(account: Loopback.account(), rendezvous: rendezvous.token,
                                              channel: ListenerFrameChannel.serving(listener))
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
