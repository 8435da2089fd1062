import AccountHandoff
@testable import AccountHandoffTransport
import Foundation
import Testing

/// The listener's limits (Spec 11.6) against single hostile peers: the bind deadline and its
/// pauses, one hello per connection, the hello gate, ignored frames, binding, eviction,
/// capacity and bounded buffers. The tests play the session themselves with `receive()`.
@Suite struct ListenerLimitsTests {
    /// A frame that is not a hello (type 7), with a marker byte.
    static func frame(_ marker: UInt8) -> [UInt8] { [0x02, 0x07, marker] }

    /// A hello-shaped frame (type 1), with a marker byte.
    static func hello(_ marker: UInt8) -> [UInt8] { [0x02, MessageType.hello.rawValue, marker] }

    // MARK: Bind deadline

    @Test func anAdmittedConnectionNeverBoundIsClosedAtTheBindDeadline() async throws {
        let (listener, _, keys) = try Loopback.listener(Loopback.shortBind)
        defer { Task { await listener.close() } }
        let start = ContinuousClock.now  // before the response, so before the admission
        let peer = try await RawPeer.admitted(to: listener, keys: keys)
        #expect(await peer.waitForClose(within: .seconds(10)))
        #expect(ContinuousClock.now - start >= Loopback.shortBind.bindTimeout)
        let statistics = await listener.statistics
        #expect(statistics.bindTimedOut == 1)
        #expect(try await Loopback.event(listener, within: .milliseconds(100)) == nil)  // the session never knew it
    }

    @Test func theBindClockStandsStillWhileItsFrameIsWithTheSession() async throws {
        let (listener, _, keys) = try Loopback.listener(Loopback.shortBind)
        defer { Task { await listener.close() } }
        let peer = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.frame(1)))
        let event = try #require(try await Loopback.event(listener)?.frame)
        // The session holds the frame for three bind deadlines: the connection stays.
        #expect(await peer.peerState(within: Loopback.shortBind.bindTimeout * 3) == .open)
        // Done with it (the next receive); the clock runs again and the deadline closes it.
        #expect(try await Loopback.event(listener)?.leftPeer == event.peer)
        #expect(await peer.waitForClose())
        #expect(await listener.statistics.bindTimedOut == 1)
    }

    /// An honest connection is never closed while its hello waits for its turn (Spec 11.6).
    @Test func aHelloWaitingItsTurnAtTheGateKeepsItsConnection() async throws {
        var configuration = Loopback.shortBind
        configuration.hellosPerSecond = 1
        configuration.maximumConnections = 8
        let (listener, _, keys) = try Loopback.listener(configuration)
        defer { Task { await listener.close() } }
        var peers: [RawPeer] = []
        for marker in UInt8(1)...3 {
            peers.append(try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.hello(marker))))
            #expect(await Loopback.eventually { await listener.statistics.hellosWaiting == Int(marker) })
        }
        // The third waits two seconds at one hello per second, against a 700 ms bind deadline.
        var handed: [(UInt8, FramePeer)] = []
        for _ in 0..<3 {
            let event = try #require(try await Loopback.event(listener, within: .seconds(5))?.frame)
            handed.append((event.bytes[2], event.peer))
            await listener.bind(event.peer)
        }
        #expect(handed.map(\.0) == [1, 2, 3])
        for peer in peers { #expect(await peer.peerState(within: .milliseconds(10)) == .open) }
        let statistics = await listener.statistics
        #expect(statistics.hellosHandedOver == 3)
        #expect(statistics.bindTimedOut == 0)
        #expect(statistics.longestHelloWait >= .milliseconds(1900))
        #expect(statistics.peakHellosWaiting == 3)
    }

    @Test func aBoundConnectionHasNoBindDeadline() async throws {
        let (listener, _, keys) = try Loopback.listener(Loopback.shortBind)
        defer { Task { await listener.close() } }
        let peer = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.hello(1)))
        let event = try #require(try await Loopback.event(listener)?.frame)
        await listener.bind(event.peer)
        #expect(await listener.boundPeers == [event.peer])
        #expect(try await Loopback.event(listener, within: Loopback.shortBind.bindTimeout * 2) == nil)
        try await peer.send(frame: Self.frame(2))
        #expect(try await Loopback.event(listener)?.frame?.bytes == Self.frame(2))
        #expect(await listener.statistics.bindTimedOut == 0)
    }

    // MARK: Hellos

    @Test func aSecondHelloOnAnUnboundConnectionClosesIt() async throws {
        let (listener, _, keys) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let peer = try await RawPeer.admitted(to: listener, keys: keys,
                                        sending: FrameStream.encode(Self.hello(1)) + FrameStream.encode(Self.hello(2)))
        let first = try #require(try await Loopback.event(listener)?.frame)
        #expect(first.bytes == Self.hello(1))
        // The session ignored it; the second hello is read only now, and ends the connection.
        await listener.noteIgnoredFrame(from: first.peer)
        #expect(try await Loopback.event(listener)?.leftPeer == first.peer)
        #expect(await peer.waitForClose())
        let statistics = await listener.statistics
        #expect(statistics.closedForSecondHello == 1)
        #expect(statistics.hellosHandedOver == 1)
    }

    @Test func aBoundConnectionMaySendAnotherHello() async throws {
        let (listener, _, keys) = try Loopback.listener()
        defer { Task { await listener.close() } }
        _ = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.hello(1)) + FrameStream.encode(Self.hello(2)))
        let first = try #require(try await Loopback.event(listener)?.frame)
        await listener.bind(first.peer)
        #expect(try await Loopback.event(listener)?.frame?.bytes == Self.hello(2))
        #expect(await listener.statistics.closedForSecondHello == 0)
    }

    /// At most `hellosPerSecond` in any second, in order of arrival; a later frame that is not
    /// a hello passes only the hellos the gate holds.
    @Test func hellosAreHandedOverAtTheGatesRateFirstComeFirstServed() async throws {
        var configuration = Loopback.fast
        configuration.hellosPerSecond = 4
        configuration.maximumConnections = 16
        let (listener, _, keys) = try Loopback.listener(configuration)
        defer { Task { await listener.close() } }
        var peers: [RawPeer] = []
        for marker in UInt8(1)...10 {
            peers.append(try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.hello(marker))))
            #expect(await Loopback.eventually { await listener.statistics.hellosWaiting == Int(marker) })
        }
        // A frame that is not a hello, from one more connection, waits only for the hellos
        // that may go now (the first four), not for those the gate holds.
        peers.append(try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.frame(99))))
        #expect(await Loopback.eventually { await listener.openConnectionCount == 11 })
        // Its frame is read and queued beside the ten waiting hellos before the session asks.
        #expect(await Loopback.eventually { await listener.peaks.queuedEvents == 11 })
        var order: [UInt8] = []
        let start = ContinuousClock.now
        for _ in 0..<11 {
            let event = try #require(try await Loopback.event(listener, within: .seconds(10))?.frame)
            order.append(event.bytes[2])
            await listener.noteIgnoredFrame(from: event.peer)
        }
        #expect(try #require(order.firstIndex(of: 99)) >= 4)
        #expect(order.filter { $0 != 99 } == Array(1...10))
        // Ten hellos at four per second: the ninth and tenth go two seconds after the first.
        #expect(ContinuousClock.now - start >= .seconds(2))
        let statistics = await listener.statistics
        #expect(statistics.longestHelloWait >= .seconds(2))
        #expect(statistics.hellosHandedOver == 10)
        #expect(statistics.hellosWaiting == 0)
        #expect(statistics.peakHellosWaiting == 10)
    }

    /// Spec 11.6: a frame of an unbound connection never passes a hello that arrived before it
    /// and may go: however fast others send frames, a hello waits only for the gate and the
    /// hellos before it.
    @Test func aFrameNeverPassesAnEarlierHelloOnceTheGateOpens() async throws {
        var configuration = Loopback.fast
        configuration.hellosPerSecond = 1
        configuration.maximumConnections = 8
        let (listener, _, keys) = try Loopback.listener(configuration)
        defer { Task { await listener.close() } }
        let first = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.hello(1)))
        let firstEvent = try #require(try await Loopback.event(listener)?.frame)
        let gateClosedAt = ContinuousClock.now
        #expect(firstEvent.bytes == Self.hello(1))
        // The gate is closed for a second: a hello waits, then frames arrive behind it.
        let second = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.hello(2)))
        #expect(await Loopback.eventually { await listener.statistics.hellosWaiting == 1 })
        var others: [RawPeer] = []
        for marker in UInt8(10)...12 {
            others.append(try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.frame(marker))))
            #expect(await Loopback.eventually { await listener.peaks.queuedEvents >= 1 + Int(marker) - 9 })
        }
        // Once the gate is open again, the waiting hello goes before every later frame.
        try await Task.sleep(until: gateClosedAt + .milliseconds(1200), clock: .continuous)
        var order: [UInt8] = []
        for _ in 0..<4 {
            let event = try #require(try await Loopback.event(listener)?.frame)
            order.append(event.bytes[2])
            await listener.noteIgnoredFrame(from: event.peer)
        }
        #expect(order == [2, 10, 11, 12])
        _ = (first, second, others)
    }

    // MARK: Ignored frames and binding

    @Test func anUnboundConnectionIsClosedAfterTheIgnoredFrameLimit() async throws {
        let (listener, _, keys) = try Loopback.listener()  // maximumIgnoredFrames: 3
        defer { Task { await listener.close() } }
        let junk = try (0..<5).flatMap { try FrameStream.encode(Self.frame(UInt8($0))) }
        let stray = try await RawPeer.admitted(to: listener, keys: keys, sending: junk)
        for index in 0..<3 {
            let event = try #require(try await Loopback.event(listener)?.frame)
            #expect(event.bytes == Self.frame(UInt8(index)))
            await listener.noteIgnoredFrame(from: event.peer)
        }
        #expect(try await Loopback.event(listener, within: .milliseconds(200)) == nil)  // frames 4 and 5 never surface
        #expect(await stray.waitForClose())
        #expect(await listener.statistics.closedForIgnoredFrames == 1)
    }

    @Test func aBoundConnectionIsNeverClosedForIgnoredFrames() async throws {
        let (listener, _, keys) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let frames = try (0..<10).flatMap { try FrameStream.encode(Self.frame(UInt8($0))) }
        let peer = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.hello(0)) + frames)
        let hello = try #require(try await Loopback.event(listener)?.frame)
        await listener.bind(hello.peer)
        for index in 0..<10 {
            #expect(try await Loopback.event(listener)?.frame?.bytes == Self.frame(UInt8(index)))
            await listener.noteIgnoredFrame(from: hello.peer)
        }
        try await listener.send([1], to: hello.peer)
        #expect(try await peer.receiveFrame() == [1])
    }

    @Test func atMostThirtyTwoConnectionsAreBoundAtOnce() async throws {
        var configuration = Loopback.fast
        configuration.maximumConnections = 40
        let (listener, _, keys) = try Loopback.listener(configuration)
        defer { Task { await listener.close() } }
        var peers: [RawPeer] = []
        for marker in 0..<34 { peers.append(try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.frame(UInt8(marker))))) }
        var seen: [FramePeer] = []
        for _ in 0..<34 {
            let event = try #require(try await Loopback.event(listener)?.frame)
            await listener.bind(event.peer)
            seen.append(event.peer)
        }
        #expect(FrameListener.maximumBoundConnections == 32)
        #expect(await listener.boundPeers.count == 32)
        #expect(await listener.boundPeers == Array(seen.prefix(32)).sorted { $0.id < $1.id })
    }

    // MARK: Capacity and eviction

    /// Spec 11.6: to make room, first a connection whose hello the session saw and did not bind,
    /// then the oldest one not yet admitted; never the bound one, and never one that passed
    /// admission and whose hello is still to come (only someone who saw the QR gets there, and
    /// a newcomer that has proved nothing cannot push it out).
    @Test func evictionTakesAServedConnectionFirstThenTheOldestNotYetAdmittedNeverAnAdmittedOne() async throws {
        let configuration = Loopback.fast  // capacity 4
        let (listener, _, keys) = try Loopback.listener(configuration)
        defer { Task { await listener.close() } }
        let receiver = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.hello(0)))
        let bound = try #require(try await Loopback.event(listener)?.frame).peer
        await listener.bind(bound)
        // An admitted connection whose hello is still to come, then one whose hello the session saw.
        let quiet = try await RawPeer.admitted(to: listener, keys: keys)
        #expect(await Loopback.eventually { await listener.statistics.admitted == 2 })
        let served = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.hello(1)))
        let servedPeer = try #require(try await Loopback.event(listener)?.frame).peer
        await listener.noteIgnoredFrame(from: servedPeer)
        #expect(try await Loopback.event(listener, within: .milliseconds(50)) == nil)  // done with it
        // A fourth, never admitted, fills the listener.
        let fourth = try await RawPeer.connect(to: listener)
        #expect(await Loopback.eventually { await listener.openConnectionCount == 4 })
        // Full: a fifth connection makes room by closing the served one, although it is newer.
        let fifth = try await RawPeer.connect(to: listener)
        #expect(try await Loopback.event(listener)?.leftPeer == servedPeer)
        #expect(await served.waitForClose())
        // Then the oldest not yet admitted, one by one; never the quiet admitted one.
        let sixth = try await RawPeer.connect(to: listener)
        #expect(await fourth.waitForClose())
        let seventh = try await RawPeer.connect(to: listener)
        #expect(await fifth.waitForClose())
        for peer in [sixth, seventh] { #expect(await peer.peerState(within: .milliseconds(20)) != .closed) }
        #expect(await quiet.peerState(within: .milliseconds(20)) == .open)
        #expect(await receiver.peerState(within: .milliseconds(20)) == .open)
        // Its hello, late, still reaches the session.
        try await quiet.write(FrameStream.encode(Self.hello(2)))
        #expect(try await Loopback.event(listener)?.frame?.bytes == Self.hello(2))
        let statistics = await listener.statistics
        #expect(statistics.evictedAfterAdmission == 1)
        #expect(statistics.evictedBeforeAdmission == 2)
        #expect(statistics.peakOpenConnections == 4)
        try await listener.send([5], to: bound)
        #expect(try await receiver.receiveFrame() == [5])
    }

    /// Spec 11.6: admitted connections whose hellos are still to come fill the listener; a
    /// new connection, which has proved nothing, is closed before its challenge, and none of
    /// them is.
    @Test func anAdmittedConnectionIsNeverClosedToMakeRoom() async throws {
        var configuration = Loopback.fast
        configuration.maximumConnections = 2
        let (listener, _, keys) = try Loopback.listener(configuration)
        defer { Task { await listener.close() } }
        let admitted = [try await RawPeer.admitted(to: listener, keys: keys), try await RawPeer.admitted(to: listener, keys: keys)]
        #expect(await Loopback.eventually { await listener.statistics.admitted == 2 })
        let late = try await RawPeer.connect(to: listener)
        #expect(await late.waitForClose())
        #expect(await listener.statistics.refusedAtCapacity == 1)
        for peer in admitted { #expect(await peer.peerState(within: .milliseconds(20)) == .open) }
        try await admitted[0].write(FrameStream.encode(Self.hello(0)))
        #expect(try await Loopback.event(listener)?.frame?.bytes == Self.hello(0))
        #expect(await listener.statistics.evicted == 0)
    }

    @Test func whenNoConnectionMayMakeRoomTheNewOneIsClosed() async throws {
        var configuration = Loopback.fast
        configuration.maximumConnections = 2
        let (listener, _, keys) = try Loopback.listener(configuration)
        defer { Task { await listener.close() } }
        _ = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.hello(0)))
        let bound = try #require(try await Loopback.event(listener)?.frame).peer
        await listener.bind(bound)
        // The other slot: a hello that waits with the session (the test does not ask for more).
        let waiting = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(Self.hello(1)))
        #expect(await Loopback.eventually { await listener.statistics.hellosWaiting == 1 })
        let late = try await RawPeer.connect(to: listener)
        #expect(await late.waitForClose())
        #expect(await listener.statistics.refusedAtCapacity == 1)
        #expect(await waiting.peerState(within: .milliseconds(20)) == .open)
        #expect(try await Loopback.event(listener)?.frame?.bytes == Self.hello(1))
    }

    @Test func capacityNeverExceedsHalfTheDescriptorLimit() throws {
        let limit = try #require(DescriptorBudget.softDescriptorLimit())
        let listener = try FrameListener(configuration: TransportConfiguration())
        defer { Task { await listener.close() } }
        #expect(TransportConfiguration.standard.maximumConnections == 256)
        #expect(listener.connectionCapacity == min(256, limit / 2))
        #expect(DescriptorBudget.connectionCapacity(configured: Int.max) == max(1, limit / 2))
    }

    // MARK: Buffers

    @Test func readsNeverBufferMoreThanOneFrameAndItsPrefix() async throws {
        let (listener, _, keys) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let big = [UInt8](repeating: 0xEE, count: Frame.maximumByteCount)
        // Three whole maximum-size frames and most of a fourth, all at once.
        let bytes = try FrameStream.encode(big) + FrameStream.encode(big) + FrameStream.encode(big) + FrameStream.encode(big).prefix(4000)
        let peer = try await RawPeer.admitted(to: listener, keys: keys, sending: Array(bytes))
        for _ in 0..<3 { #expect(try await Loopback.event(listener)?.frame?.bytes == big) }
        #expect(try await Loopback.event(listener, within: .milliseconds(100)) == nil)
        let peaks = await listener.peaks
        #expect(peaks.bufferedBytes == FrameStream.lengthPrefixByteCount + Frame.maximumByteCount)
        #expect(peaks.queuedEvents <= 1)
        _ = peer
    }
}
