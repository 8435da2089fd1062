import AccountHandoff
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Issue 10, "A stray peer cannot block a transfer": a listener flooded with silent, slow and
/// tagged-but-silent connections plus a replayed hello still lets the real receiver through,
/// and gives back every descriptor.
@Suite(.serialized) struct FloodTests {
    struct Scenario: Sendable, CustomTestStringConvertible {
        /// The listener's connection capacity.
        let capacity: Int
        /// Connections of each hostile kind: silent, slow, tagged-but-silent.
        let perKind: Int
        var testDescription: String { "\(3 * perKind + 1) hostile connections, capacity \(capacity)" }
    }

    static func configuration(capacity: Int) -> TransportConfiguration {
        TransportConfiguration(connectTimeout: .seconds(2), tagTimeout: .milliseconds(500), helloTimeout: .milliseconds(1500),
                               readTimeout: .seconds(5), writeTimeout: .seconds(2), closeLinger: .milliseconds(200),
                               maximumConnections: capacity, maximumIgnoredFrames: 8)
    }

    /// A hello of the right shape from some other session: valid-looking, not this one's.
    static let staleHello: [UInt8] = [0x02] + Array(repeating: 0xA5, count: 63)

    @Test(arguments: [Scenario(capacity: 256, perKind: 64), Scenario(capacity: 64, perKind: 64)])
    func realReceiverCompletesThroughAFlood(_ scenario: Scenario) throws {
        let configuration = Self.configuration(capacity: scenario.capacity)
        let listener = try FrameListener(tag: [0xF1, 0x00, 0xD5, 0x42, 0x42, 0x17], configuration: configuration)
        try #require(listener.connectionCapacity == scenario.capacity)
        let rendezvous = listener.rendezvous
        let preamble = rendezvous.preamble
        let session = StandInSession(listener: listener)
        session.start()
        var sessionRunning = true
        defer { if sessionRunning { session.stop().close() } }

        // The flood: silent, tagged-but-silent and slow connections (and later one that replays).
        let silent = try (0..<scenario.perKind).map { _ in try Loopback.rawConnection(to: rendezvous, sending: []) }
        let tagged = try (0..<scenario.perKind).map { _ in try Loopback.rawConnection(to: rendezvous, sending: preamble) }
        let slow = try (0..<scenario.perKind).map { _ in try Loopback.rawConnection(to: rendezvous, sending: [preamble[0]]) }
        let hostile = silent + tagged + slow
        defer { hostile.forEach { $0.close() } }
        // The slow ones send one more correct preamble byte every 100 ms: 900 ms for the whole
        // preamble, beyond the 500 ms tag deadline.
        let trickled = DispatchSemaphore(value: 0)
        let slowBox = SocketBox(slow)
        Thread {
            for index in 1..<preamble.count {
                Thread.sleep(forTimeInterval: 0.1)
                for socket in slowBox.sockets { try? socket.writeAll([preamble[index]], until: .now + .milliseconds(50)) }
            }
            trickled.signal()
        }.start()

        // The real receiver: preamble and hello, the session's reply, then a request and its response.
        let started = ContinuousClock.now
        let receiver = try FrameConnection.connect(to: rendezvous, configuration: Loopback.fast)
        defer { receiver.close() }
        try receiver.send(StandInSession.hello)
        #expect(try receiver.receive(timeout: .seconds(5)) == StandInSession.welcome)
        try receiver.send(StandInSession.request)
        #expect(try receiver.receive(timeout: .seconds(5)) == StandInSession.response)
        let exchange = ContinuousClock.now - started
        let duringFlood = DescriptorCensus.tcpSockets(of: rendezvous)

        // A replay of the real hello on another connection changes nothing: it is ignored, and
        // that connection is closed at the ignored-frame limit (a stale hello first, then eight
        // copies of the real one). It connects only now and sends everything at once, so its
        // own hello deadline cannot close it first on a loaded machine.
        let replays = try (0..<8).flatMap { _ in try FrameStream.encode(StandInSession.hello) }
        let replayer = try Loopback.rawConnection(to: rendezvous, sending: preamble + FrameStream.encode(Self.staleHello) + replays)
        defer { replayer.close() }
        let flood = hostile + [replayer]
        #expect(Loopback.peerState(of: replayer, within: .seconds(3)) == .closed)
        try receiver.send(StandInSession.request)
        #expect(try receiver.receive(timeout: .seconds(5)) == StandInSession.response)

        // Every hostile connection meets a deadline; only the receiver stays.
        trickled.wait()
        let settleBy = ContinuousClock.now + .seconds(10)
        while session.record.openConnections > 1, ContinuousClock.now < settleBy { Thread.sleep(forTimeInterval: 0.05) }
        let record = session.record
        let statistics = record.statistics
        #expect(record.openConnections == 1)
        #expect(record.failure == nil)
        #expect(record.bindCount == 1)
        let bound = try #require(record.bound)
        #expect(record.disconnections[bound] == nil)  // never evicted, never timed out
        #expect(record.exchanges == 2)
        #expect(record.closedForIgnoredFrames.count == 1)
        #expect(statistics.closedForIgnoredFrames == 1)

        // Every connection is accounted for exactly once.
        #expect(statistics.accepted == flood.count + 1)
        #expect(statistics.refusedTag == 0)
        #expect(statistics.refusedAtCapacity == 0)
        #expect(statistics.accepted == statistics.admitted + statistics.tagTimedOut + statistics.evictedBeforeTag)
        #expect(statistics.admitted == statistics.helloTimedOut + statistics.evictedAfterTag + statistics.closedForIgnoredFrames + 1)
        #expect(record.disconnections.values.count(where: { $0 == .notJoinedInTime }) == statistics.helloTimedOut)
        #expect(record.disconnections.values.count(where: { $0 == .evicted }) == statistics.evictedAfterTag)
        #expect(statistics.peakOpenConnections <= scenario.capacity)
        if flood.count + 1 <= scenario.capacity {
            // Room for everyone: the deadlines alone clear the flood.
            #expect(statistics.evicted == 0)
            #expect(statistics.tagTimedOut == 2 * scenario.perKind)
            #expect(statistics.helloTimedOut == scenario.perKind)
            #expect(statistics.admitted == scenario.perKind + 2)
        } else {
            // Full: newer connections pushed out older unbound ones, never the receiver.
            #expect(statistics.evicted > 0)
            #expect(statistics.evicted <= flood.count + 1 - scenario.capacity)
            #expect(statistics.peakOpenConnections == scenario.capacity)
        }

        let finished = session.stop()
        sessionRunning = false
        #expect(finished.peakBufferedByteCount <= FrameStream.lengthPrefixByteCount + Frame.maximumByteCount)
        finished.close()
        flood.forEach { $0.close() }
        receiver.close()
        #if os(Linux)
        let listenerSide = try #require(duringFlood?.listenerSide)
        // The connections, the listening socket, and one just accepted at capacity while the
        // oldest unbound connection is closed to make room (the census runs on another thread).
        #expect(listenerSide <= scenario.capacity + 2)
        #expect(DescriptorCensus.tcpSockets(of: rendezvous).map { [$0.listenerSide, $0.clientSide] } == [0, 0])
        #endif
        print("""
            Flood: \(flood.count) hostile connections against capacity \(scenario.capacity); receiver's exchange \
            took \(exchange); listener-side sockets during the flood \(duringFlood.map { "\($0.listenerSide)" } ?? "?"); \
            \(statistics)
            """)
    }

    @Test func slowestUnauthenticatedConnectionIsClosedAtItsTagTimePlusTheHelloDeadline() throws {
        var configuration = Self.configuration(capacity: 16)
        configuration.tagTimeout = .milliseconds(400)
        configuration.helloTimeout = .milliseconds(800)
        configuration.readTimeout = .seconds(10)
        let listener = try FrameListener(tag: [1, 1, 2, 3, 5, 8], configuration: configuration)
        let rendezvous = listener.rendezvous
        let session = StandInSession(listener: listener)
        session.start()
        defer { session.stop().close() }

        // The longest stay: the tag's last byte just before its deadline, then a frame that
        // never completes, one byte every 50 ms.
        let started = ContinuousClock.now
        let holder = try Loopback.rawConnection(to: rendezvous, sending: Array(rendezvous.preamble.prefix(9)))
        defer { holder.close() }
        Thread.sleep(forTimeInterval: 0.25)
        let tagged = ContinuousClock.now  // the listener reads the last tag byte after this
        try holder.writeAll([rendezvous.preamble[9], 0x00, 0xFF], until: .now + .seconds(1))
        var closed = false
        while !closed, ContinuousClock.now - started < .seconds(5) {
            _ = try? holder.writeAll([0x77], until: .now + .milliseconds(50))
            closed = Loopback.peerState(of: holder, within: .milliseconds(50)) == .closed
        }
        let held = ContinuousClock.now - started
        #expect(closed)
        #expect(ContinuousClock.now - tagged >= configuration.helloTimeout)
        // The stand-in publishes the listener's statistics after the call that closed the
        // socket returns, so the count can trail the close by one turn of its loop.
        let deadline = ContinuousClock.now + .seconds(2)
        while session.record.statistics.helloTimedOut == 0, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(session.record.statistics.helloTimedOut == 1)
        #expect(session.record.statistics.tagTimedOut == 0)
        print("Longest slot holding measured: \(held) (tag deadline \(configuration.tagTimeout) + hello deadline \(configuration.helloTimeout))")
    }
}
