import AccountHandoff
@testable import AccountHandoffTransport
import Foundation
import Testing

/// The listener's admission policy against single hostile peers on 127.0.0.1: deadlines that
/// a trickle cannot stretch, binding, ignored frames, eviction and bounded buffers.
@Suite struct AdmissionTests {
    static let hello: [UInt8] = [0x02] + Array(1...63)

    static func listener(_ configuration: TransportConfiguration = Loopback.fast) throws -> FrameListener {
        try FrameListener(tag: [9, 8, 7, 6, 5, 4], configuration: configuration)
    }

    /// Waits for the next event that is not `nil` within `timeout`.
    static func event(_ listener: FrameListener, within timeout: Duration = .seconds(3)) throws -> FrameListener.Event? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let event = try listener.next(timeout: .milliseconds(50)) { return event }
        }
        return nil
    }

    // MARK: Deadlines

    @Test func taggedConnectionThatIsNeverBoundIsClosedAtTheHelloDeadline() throws {
        let listener = try Self.listener()
        defer { listener.close() }
        let start = ContinuousClock.now
        let silent = try Loopback.rawConnection(to: listener.rendezvous, sending: listener.rendezvous.preamble)
        defer { silent.close() }
        guard case .connected(let id) = try Self.event(listener) else { Issue.record("not admitted"); return }
        #expect(try Self.event(listener) == .disconnected(id, .notJoinedInTime))
        #expect(ContinuousClock.now - start >= Loopback.fast.helloTimeout)
        #expect(listener.statistics.helloTimedOut == 1)
        #expect(listener.openConnectionCount == 0)
        #expect(Loopback.peerState(of: silent) == .closed)
    }

    @Test func unboundConnectionWhoseFramesTheSessionReadsIsStillClosedAtTheHelloDeadline() throws {
        let listener = try Self.listener()
        defer { listener.close() }
        let peer = try Loopback.rawConnection(to: listener.rendezvous, sending: listener.rendezvous.preamble + FrameStream.encode([1]))
        defer { peer.close() }
        guard case .connected(let id) = try Self.event(listener) else { Issue.record("not admitted"); return }
        #expect(try Self.event(listener) == .frame(id, [1]))
        // The driver neither binds it nor calls it ignored: the deadline still holds.
        #expect(try Self.event(listener) == .disconnected(id, .notJoinedInTime))
    }

    @Test func preambleTrickledByteByByteIsHeldToTheTagDeadline() throws {
        let listener = try Self.listener()
        defer { listener.close() }
        let preamble = listener.rendezvous.preamble
        let slow = try Loopback.rawConnection(to: listener.rendezvous, sending: [preamble[0]])
        defer { slow.close() }
        var sent = 1
        // One correct byte every 60 ms: the whole preamble would take 540 ms, the deadline is 300 ms.
        while sent < preamble.count {
            #expect(try listener.next(timeout: .milliseconds(60)) == nil)  // never admitted
            do { try slow.writeAll([preamble[sent]], until: .now + .seconds(1)) } catch { break }
            sent += 1
        }
        #expect(try listener.next(timeout: .milliseconds(100)) == nil)
        #expect(listener.statistics.tagTimedOut == 1)
        #expect(listener.statistics.admitted == 0)
        #expect(listener.statistics.refusedTag == 0)
        #expect(Loopback.peerState(of: slow) == .closed)
    }

    @Test func frameTrickledByteByByteIsHeldToTheHelloDeadline() throws {
        // A read timeout far beyond the hello deadline, so only the hello deadline can end it.
        var configuration = Loopback.fast
        configuration.readTimeout = .seconds(10)
        let listener = try Self.listener(configuration)
        defer { listener.close() }
        let slow = try Loopback.rawConnection(to: listener.rendezvous, sending: listener.rendezvous.preamble + [0, 100])
        defer { slow.close() }
        guard case .connected(let id) = try Self.event(listener) else { Issue.record("not admitted"); return }
        let admitted = ContinuousClock.now
        var ended: FrameListener.Event?
        for _ in 0..<100 {
            _ = try? slow.writeAll([0x55], until: .now + .seconds(1))
            if let event = try listener.next(timeout: .milliseconds(40)) {
                ended = event
                break
            }
        }
        #expect(ended == .disconnected(id, .notJoinedInTime))
        #expect(ContinuousClock.now - admitted >= configuration.helloTimeout - .milliseconds(50))
    }

    @Test func boundConnectionHasNoAdmissionDeadline() throws {
        let listener = try Self.listener()
        defer { listener.close() }
        let connection = try FrameConnection.connect(to: listener.rendezvous, configuration: Loopback.fast)
        defer { connection.close() }
        try connection.send(Self.hello)
        guard case .connected(let id) = try Self.event(listener), try Self.event(listener) == .frame(id, Self.hello) else {
            Issue.record("no hello"); return
        }
        try listener.bind(id)
        #expect(listener.boundConnections == [id])
        // Twice the hello deadline passes quietly.
        #expect(try listener.next(timeout: Loopback.fast.helloTimeout * 2) == nil)
        try connection.send([7, 7])
        #expect(try Self.event(listener) == .frame(id, [7, 7]))
        try listener.send([8], to: id)
        #expect(try connection.receive(timeout: .seconds(2)) == [8])
        #expect(listener.statistics.helloTimedOut == 0)
    }

    // MARK: Binding

    @Test func atMostFourConnectionsCanBeBoundAndTheRestMeetTheirDeadline() throws {
        var roomy = Loopback.fast
        roomy.maximumConnections = 8
        let listener = try Self.listener(roomy)
        defer { listener.close() }
        let peers = try (0..<6).map { _ in try Loopback.rawConnection(to: listener.rendezvous, sending: listener.rendezvous.preamble) }
        defer { peers.forEach { $0.close() } }
        var admitted: [FrameListener.ConnectionID] = []
        while admitted.count < 6, case .connected(let id)? = try Self.event(listener) { admitted.append(id) }
        try #require(admitted.count == 6)
        for id in admitted.prefix(4) { try listener.bind(id) }
        try listener.bind(admitted[0])  // again: nothing changes
        #expect(throws: TransportError.boundConnectionLimit) { try listener.bind(admitted[4]) }
        #expect(listener.boundConnections == Array(admitted.prefix(4)))
        // The unbound ones still meet their deadline; the bound ones do not.
        var timedOut: Set<FrameListener.ConnectionID> = []
        while timedOut.count < 2, case .disconnected(let id, .notJoinedInTime)? = try Self.event(listener) { timedOut.insert(id) }
        #expect(timedOut == Set(admitted.suffix(2)))
        #expect(listener.openConnectionCount == 4)
    }

    @Test func aConnectionThatIsGoneCannotBeBound() throws {
        let listener = try Self.listener()
        defer { listener.close() }
        let peer = try Loopback.rawConnection(to: listener.rendezvous, sending: listener.rendezvous.preamble)
        guard case .connected(let id) = try Self.event(listener) else { Issue.record("not admitted"); return }
        peer.close()
        #expect(try Self.event(listener) == .disconnected(id, .closedByPeer))
        #expect(throws: TransportError.closedLocally) { try listener.bind(id) }
        #expect(listener.boundConnections.isEmpty)
    }

    // MARK: Ignored frames

    @Test func unboundConnectionIsClosedAfterTheIgnoredFrameLimitWithoutTouchingTheSession() throws {
        let listener = try Self.listener()  // maximumIgnoredFrames: 3
        defer { listener.close() }
        let junk = try (0..<5).flatMap { index in try FrameStream.encode([0x41, UInt8(index)]) }
        let stray = try Loopback.rawConnection(to: listener.rendezvous, sending: listener.rendezvous.preamble + junk)
        defer { stray.close() }
        guard case .connected(let id) = try Self.event(listener) else { Issue.record("not admitted"); return }
        var verdicts: [Bool] = []
        for index in 0..<3 {
            #expect(try Self.event(listener) == .frame(id, [0x41, UInt8(index)]))
            verdicts.append(listener.noteIgnoredFrame(id))
        }
        #expect(verdicts == [false, false, true])
        #expect(try listener.next(timeout: .milliseconds(200)) == nil)  // frames 4 and 5 never surface
        #expect(listener.statistics.closedForIgnoredFrames == 1)
        #expect(listener.noteIgnoredFrame(id) == false)  // already closed
        #expect(Loopback.peerState(of: stray) == .closed)

        // The listener still admits and binds the real receiver.
        let connection = try FrameConnection.connect(to: listener.rendezvous, configuration: Loopback.fast)
        defer { connection.close() }
        try connection.send(Self.hello)
        guard case .connected(let real) = try Self.event(listener), try Self.event(listener) == .frame(real, Self.hello) else {
            Issue.record("real receiver not admitted"); return
        }
        try listener.bind(real)
    }

    @Test func boundConnectionIsNeverClosedForIgnoredFrames() throws {
        let listener = try Self.listener()
        defer { listener.close() }
        let connection = try FrameConnection.connect(to: listener.rendezvous, configuration: Loopback.fast)
        defer { connection.close() }
        try connection.send(Self.hello)
        guard case .connected(let id) = try Self.event(listener), try Self.event(listener) == .frame(id, Self.hello) else {
            Issue.record("no hello"); return
        }
        try listener.bind(id)
        for index in 0..<10 { try connection.send([0x41, UInt8(index)]) }
        for index in 0..<10 {
            #expect(try Self.event(listener) == .frame(id, [0x41, UInt8(index)]))
            #expect(listener.noteIgnoredFrame(id) == false)
        }
        try listener.send([1], to: id)
        #expect(try connection.receive(timeout: .seconds(2)) == [1])
    }

    // MARK: Eviction

    @Test func evictionTakesTheOldestUnboundConnectionAndNeverTheBoundOne() throws {
        let listener = try Self.listener()  // capacity 4
        defer { listener.close() }
        let connection = try FrameConnection.connect(to: listener.rendezvous, configuration: Loopback.fast)
        defer { connection.close() }
        try connection.send(Self.hello)
        guard case .connected(let bound) = try Self.event(listener), try Self.event(listener) == .frame(bound, Self.hello) else {
            Issue.record("no hello"); return
        }
        try listener.bind(bound)

        var sockets: [POSIXSocket] = []
        defer { sockets.forEach { $0.close() } }
        var tagged: [FrameListener.ConnectionID] = []
        for _ in 0..<3 {
            sockets.append(try Loopback.rawConnection(to: listener.rendezvous, sending: listener.rendezvous.preamble))
            guard case .connected(let id) = try Self.event(listener) else { Issue.record("not admitted"); return }
            tagged.append(id)
        }
        #expect(listener.openConnectionCount == 4)

        // Full: a fifth connection (no tag yet) evicts the oldest unbound one, the first tagged.
        sockets.append(try Loopback.rawConnection(to: listener.rendezvous, sending: []))
        #expect(try Self.event(listener) == .disconnected(tagged[0], .evicted))
        // A sixth evicts the next oldest, not the fifth, which is newer.
        sockets.append(try Loopback.rawConnection(to: listener.rendezvous, sending: []))
        #expect(try Self.event(listener) == .disconnected(tagged[1], .evicted))
        #expect(try listener.next(timeout: .milliseconds(50)) == nil)
        #expect(listener.statistics.evictedAfterTag == 2)
        #expect(listener.statistics.evictedBeforeTag == 0)
        #expect(Loopback.peerState(of: sockets[0]) == .closed)
        #expect(Loopback.peerState(of: sockets[1]) == .closed)
        #expect(Loopback.peerState(of: sockets[3], within: .milliseconds(50)) == .open)
        #expect(Loopback.peerState(of: sockets[4], within: .milliseconds(50)) == .open)

        // Ten more: the bound connection is never among the evicted.
        for _ in 0..<10 {
            sockets.append(try Loopback.rawConnection(to: listener.rendezvous, sending: listener.rendezvous.preamble))
        }
        var ended: [FrameListener.ConnectionID] = []
        while let event = try listener.next(timeout: .milliseconds(100)) {
            if case .disconnected(let id, _) = event { ended.append(id) }
        }
        #expect(!ended.contains(bound))
        #expect(listener.statistics.peakOpenConnections == 4)
        try connection.send([5])
        #expect(try Self.event(listener) == .frame(bound, [5]))
    }

    @Test func whenTheBoundConnectionHoldsTheOnlySlotNewConnectionsAreRefused() throws {
        var configuration = Loopback.fast
        configuration.maximumConnections = 1
        let listener = try Self.listener(configuration)
        defer { listener.close() }
        let connection = try FrameConnection.connect(to: listener.rendezvous, configuration: Loopback.fast)
        defer { connection.close() }
        try connection.send(Self.hello)
        guard case .connected(let bound) = try Self.event(listener), try Self.event(listener) == .frame(bound, Self.hello) else {
            Issue.record("no hello"); return
        }
        try listener.bind(bound)
        let late = try Loopback.rawConnection(to: listener.rendezvous, sending: listener.rendezvous.preamble)
        defer { late.close() }
        #expect(try listener.next(timeout: .milliseconds(100)) == nil)
        #expect(listener.statistics.refusedAtCapacity == 1)
        #expect(Loopback.peerState(of: late) == .closed)
        try listener.send([1], to: bound)
        #expect(try connection.receive(timeout: .seconds(2)) == [1])
    }

    @Test func capacityNeverExceedsHalfTheDescriptorLimit() throws {
        let limit = try #require(DescriptorBudget.softDescriptorLimit())
        let listener = try Self.listener(TransportConfiguration())
        defer { listener.close() }
        #expect(TransportConfiguration.standard.maximumConnections == 256)
        #expect(listener.connectionCapacity == min(256, limit / 2))
        #expect(DescriptorBudget.connectionCapacity(configured: Int.max) == max(1, limit / 2))
    }

    // MARK: Buffers

    @Test func readsNeverBufferMoreThanOneFrameAndItsPrefix() throws {
        let listener = try Self.listener()
        defer { listener.close() }
        let big = [UInt8](repeating: 0xEE, count: Frame.maximumByteCount)
        // Three whole maximum-size frames and most of a fourth, all at once.
        let bytes = try listener.rendezvous.preamble + FrameStream.encode(big) + FrameStream.encode(big) + FrameStream.encode(big)
            + FrameStream.encode(big).prefix(4000)
        let peer = try Loopback.rawConnection(to: listener.rendezvous, sending: bytes)
        defer { peer.close() }
        guard case .connected(let id) = try Self.event(listener) else { Issue.record("not admitted"); return }
        for _ in 0..<3 { #expect(try Self.event(listener) == .frame(id, big)) }
        #expect(try listener.next(timeout: .milliseconds(100)) == nil)
        #expect(listener.peakBufferedByteCount == FrameStream.lengthPrefixByteCount + Frame.maximumByteCount)
        #expect(listener.peakQueuedEventCount <= 2)  // `connected` and one frame
    }

    @Test func aPreambleIsNeverBufferedBeyondItsTenBytes() throws {
        let listener = try Self.listener()
        defer { listener.close() }
        let stray = try Loopback.rawConnection(to: listener.rendezvous, sending: Array(listener.rendezvous.preamble.prefix(9)))
        defer { stray.close() }
        #expect(try listener.next(timeout: .milliseconds(100)) == nil)
        #expect(listener.openConnectionCount == 1)
        try stray.writeAll([UInt8](repeating: 0x41, count: 20_000), until: .now + .seconds(2))
        #expect(try listener.next(timeout: .milliseconds(100)) == nil)
        #expect(listener.statistics.refusedTag == 1)
        #expect(listener.peakBufferedByteCount == 9)
    }

    // MARK: Closing

    @Test func disconnectingAConnectionThatWasSentFramesDeliversThemWithoutWaiting() throws {
        let listener = try Self.listener()
        defer { listener.close() }
        let connection = try FrameConnection.connect(to: listener.rendezvous, configuration: Loopback.fast)
        defer { connection.close() }
        try connection.send(Self.hello)
        guard case .connected(let id) = try Self.event(listener), try Self.event(listener) == .frame(id, Self.hello) else {
            Issue.record("no hello"); return
        }
        try connection.send([3])  // still in flight when the driver disconnects
        try listener.send([0xAB, 0xCD], to: id)
        listener.disconnect(id)
        #expect(listener.openConnectionCount == 0)
        #expect(throws: TransportError.closedLocally) { try listener.send([1], to: id) }
        #expect(try connection.receive(timeout: .seconds(2)) == [0xAB, 0xCD])
        #expect(throws: TransportError.closedByPeer) { try connection.receive(timeout: .seconds(2)) }
        #expect(try listener.next(timeout: .milliseconds(300)) == nil)  // no event follows
    }
}
