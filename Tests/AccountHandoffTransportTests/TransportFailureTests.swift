import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Broken frames, lost peers and the channels' lifecycle: closing, disconnecting, adopting.
@Suite struct TransportFailureTests {
    @Test func aStalledFrameEndsTheConnection() async throws {
        let (listener, _, keys) = try Loopback.listener(Loopback.shortRead)
        defer { Task { await listener.close() } }
        let first = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode([0x02, 0x07]))
        let known = try #require(try await Loopback.event(listener)?.frame).peer
        await listener.bind(known)
        // Announces 100 bytes, sends 10, then stalls past the read timeout.
        try await first.write([0, 100] + [UInt8](repeating: 1, count: 10))
        #expect(try await Loopback.event(listener)?.leftPeer == known)
        #expect(await first.waitForClose())
    }

    @Test func anOversizedAnnouncementEndsTheConnection() async throws {
        let (listener, _, keys) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let peer = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode([0x02, 0x07]))
        let known = try #require(try await Loopback.event(listener)?.frame).peer
        try await peer.write([0x13, 0x88])
        #expect(try await Loopback.event(listener)?.leftPeer == known)
    }

    @Test func aSilentSenderEndsTheReceiversChannelOnlyWhenItCloses() async throws {
        let (listener, payload, _) = try Loopback.listener()
        let channel = try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.fast)
        let early = try await Loopback.event(channel, within: .milliseconds(200))
        let statistics = await listener.statistics
        #expect(early == nil, "an event before the sender closed: \(String(describing: early)); listener: \(statistics)")
        await listener.close()
        let left = try await Loopback.event(channel)
        #expect(left?.leftPeer == ConnectionFrameChannel.sender, "\(String(describing: left))")
        #expect(try await Loopback.event(channel) == nil)
        await #expect(throws: TransportError.closedLocally) { try await channel.send([1], to: ConnectionFrameChannel.sender) }
        await channel.close()
    }

    /// A port that is bound but not listening, and held for the whole test: a port freed by a
    /// closed listener can be taken at once by another test's listener, which then challenges
    /// with another session hint (seen once in a full run).
    @Test func nobodyListeningIsConnectionRefused() async throws {
        let (port, holder) = try refusingLoopbackPort()
        defer { holder.close() }
        let rendezvous = try TCPRendezvous(direct: TCPRendezvous.Endpoint(address: .loopback, port: port), relay: nil)
        let payload = try HandoffSender.start(account: Loopback.account(), rendezvous: rendezvous.token,
                                              random: InsecureDeterministicRandom(seed: 1), now: Loopback.now).payload
        await #expect(throws: TransportError.connectionRefused) {
            _ = try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.fast)
        }
    }

    @Test func usingAClosedListenerOrChannelFails() async throws {
        let (listener, payload, _) = try Loopback.listener()
        let channel = try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.fast)
        await channel.close()
        await #expect(throws: TransportError.closedLocally) { try await channel.send([1], to: ConnectionFrameChannel.sender) }
        #expect(try await channel.receive() == nil)
        await listener.close()
        await listener.close()  // idempotent
        #expect(try await listener.receive() == nil)
        await #expect(throws: TransportError.closedLocally) { try await listener.send([1], to: FramePeer(id: 1)) }
    }

    @Test func closingTheListenerReturnsNilToAWaitingReceive() async throws {
        let (listener, _, _) = try Loopback.listener()
        let waiting = Task { try await listener.receive() }
        try await Task.sleep(for: .milliseconds(50))
        await listener.close()
        #expect(try await waiting.value == nil)
    }

    @Test func aCancelledReceiveThrowsAndTheNextOneStillGetsTheFrame() async throws {
        let (listener, _, keys) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let waiting = Task { try await listener.receive() }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiting.value }
        _ = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode([0x02, 0x07]))
        #expect(try await Loopback.event(listener)?.frame?.bytes == [0x02, 0x07])
    }

    @Test func disconnectingAConnectionThatWasSentFramesDeliversThem() async throws {
        let (listener, _, keys) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let peer = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode([0x02, 0x07]))
        let known = try #require(try await Loopback.event(listener)?.frame).peer
        try await peer.send(frame: [3])  // still in flight when the driver disconnects
        try await listener.send([0xAB, 0xCD], to: known)
        await listener.disconnect(known)
        #expect(await listener.openConnectionCount == 0)
        await #expect(throws: TransportError.closedLocally) { try await listener.send([1], to: known) }
        #expect(try await peer.receiveFrame() == [0xAB, 0xCD])
        #expect(await peer.waitForClose())
        #expect(try await Loopback.event(listener, within: .milliseconds(300)) == nil)  // no event follows
    }

    @Test func aWriteThatTheSenderCannotFinishInTimeEndsTheConnection() async throws {
        var configuration = Loopback.fast
        configuration.writeTimeout = .milliseconds(300)
        let (listener, _, keys) = try Loopback.listener(configuration)
        defer { Task { await listener.close() } }
        let peer = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode([0x02, 0x07]))
        let known = try #require(try await Loopback.event(listener)?.frame).peer
        // The peer never reads: the socket buffers fill, and one write misses its deadline.
        let big = [UInt8](repeating: 0x77, count: Frame.maximumByteCount)
        var failure: (any Error)?
        for _ in 0..<10_000 {
            do { try await listener.send(big, to: known) } catch {
                failure = error
                break
            }
        }
        #expect(failure as? TransportError == .timedOut)
        #expect(try await Loopback.event(listener)?.leftPeer == known)
        _ = peer
    }

    /// A relayed connection (Spec 11.7) is handed over as a connected socket and admitted like
    /// an accepted one.
    @Test func anAdoptedSocketIsAdmittedLikeAnAcceptedOne() async throws {
        let (listener, _, keys) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let relay = try SilentServer(greeting: [])
        defer { relay.stop() }
        // Stand-in for a paired relay connection: a loopback connection whose far end the test holds.
        let near = try await RawPeer.connect(to: TCPRendezvous.Endpoint(address: .loopback, port: relay.port)!)
        let far = try #require(await Self.acceptedSocket(of: relay))
        listener.adopt(far)
        try await near.answerChallenge(keys: keys, then: FrameStream.encode([0x02, 0x07, 0x42]))
        #expect(try await Loopback.event(listener)?.frame?.bytes == [0x02, 0x07, 0x42])
        #expect(await listener.statistics.accepted == 1)
    }

    private static func acceptedSocket(of server: SilentServer) async -> POSIXSocket? {
        for _ in 0..<200 {
            if let socket = server.takeAccepted() { return socket }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    @Test func theUnspecifiedAddressIsRefusedBecauseACodeCannotAdvertiseIt() {
        #expect(throws: TransportError.unspecifiedAddress) { try FrameListener(address: .unspecified) }
        #expect(TransportError.unspecifiedAddress.handoffError == .transportLost)
    }

    @Test func aBusyPortIsAddressUnavailable() throws {
        let listener = try FrameListener(configuration: Loopback.fast)
        defer { Task { await listener.close() } }
        #expect(throws: TransportError.addressUnavailable(errno: EADDRINUSE)) {
            try FrameListener(port: listener.rendezvous.direct!.port)
        }
    }
}
