import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

@Suite struct TransportFailureTests {
    @Test func silentPeerTimesOutAsTransportLost() throws {
        let (listener, _) = try Loopback.sender()
        defer { listener.close() }
        let connection = try FrameConnection.connect(to: listener.rendezvous, configuration: Loopback.fast)
        defer { connection.close() }
        let start = ContinuousClock.now
        #expect(throws: TransportError.timedOut) { try connection.receive(timeout: .milliseconds(150)) }
        #expect(ContinuousClock.now - start >= .milliseconds(140))
        #expect(TransportError.timedOut.handoffError == .transportLost)
    }

    @Test func connectionThatNeverPresentsTheTagIsDroppedAfterTheTagTimeout() throws {
        let (listener, _) = try Loopback.sender()
        defer { listener.close() }
        let silent = try Loopback.rawConnection(to: listener.rendezvous, sending: [])
        defer { silent.close() }
        #expect(try listener.next(timeout: .milliseconds(100)) == nil)
        #expect(listener.openConnectionCount == 1)
        #expect(try listener.next(timeout: .milliseconds(500)) == nil)
        #expect(listener.openConnectionCount == 0)
        #expect(listener.droppedConnectionCount == 1)
        #expect(listener.statistics.tagTimedOut == 1)
        #expect(Loopback.peerState(of: silent) == .closed)
    }

    @Test func stalledFrameDisconnectsWithTimedOut() throws {
        let (listener, _) = try Loopback.sender()
        defer { listener.close() }
        // Announces 100 bytes, sends 10, then stalls.
        let staller = try Loopback.rawConnection(to: listener.rendezvous,
                                                 sending: listener.rendezvous.preamble + [0, 100] + [UInt8](repeating: 1, count: 10))
        defer { staller.close() }
        guard case .connected(let id) = try Loopback.event(listener) else { Issue.record("not admitted"); return }
        guard case .disconnected(id, .timedOut) = try Loopback.event(listener) else { Issue.record("no timeout"); return }
    }

    @Test func oversizedAnnouncementDisconnectsWithTheCoreError() throws {
        let (listener, _) = try Loopback.sender()
        defer { listener.close() }
        let big = try Loopback.rawConnection(to: listener.rendezvous, sending: listener.rendezvous.preamble + [0x13, 0x88])
        defer { big.close() }
        guard case .connected(let id) = try Loopback.event(listener) else { Issue.record("not admitted"); return }
        guard case .disconnected(id, let error) = try Loopback.event(listener) else { Issue.record("no disconnect"); return }
        #expect(error == .oversizedFrame(5000))
        #expect(error.handoffError == .oversizedFrame(5000))
    }

    @Test func aConnectionBeyondTheLimitEvictsTheOldestOneInsteadOfBeingRefused() throws {
        let (listener, _) = try Loopback.sender()
        defer { listener.close() }
        #expect(listener.connectionCapacity == 4)
        var sockets: [POSIXSocket] = []
        defer { sockets.forEach { $0.close() } }
        for _ in 0..<5 {
            sockets.append(try Loopback.rawConnection(to: listener.rendezvous, sending: []))
            #expect(try listener.next(timeout: .milliseconds(30)) == nil)
        }
        #expect(listener.openConnectionCount == 4)
        #expect(listener.statistics.accepted == 5)
        #expect(listener.statistics.evictedBeforeTag == 1)
        #expect(listener.droppedConnectionCount == 1)
        #expect(Loopback.peerState(of: sockets[0]) == .closed)  // the oldest made room
        #expect(Loopback.peerState(of: sockets[4], within: .milliseconds(50)) == .open)  // the newest got its chance
    }

    @Test func nobodyListeningIsConnectionRefused() throws {
        let (listener, _) = try Loopback.sender()
        let rendezvous = listener.rendezvous
        listener.close()
        #expect(throws: TransportError.connectionRefused) { try FrameConnection.connect(to: rendezvous, configuration: Loopback.fast) }
    }

    @Test func usingAClosedListenerOrConnectionFails() throws {
        let (listener, _) = try Loopback.sender()
        let connection = try FrameConnection.connect(to: listener.rendezvous, configuration: Loopback.fast)
        connection.close()
        #expect(!connection.isOpen)
        #expect(throws: TransportError.closedLocally) { try connection.send([1]) }
        listener.close()
        #expect(throws: TransportError.closedLocally) { try listener.next(timeout: .milliseconds(10)) }
    }

    @Test func unspecifiedAddressIsRefusedBecauseACodeCannotAdvertiseIt() {
        #expect(throws: TransportError.unspecifiedAddress) { try FrameListener(address: .unspecified, tag: [1, 2, 3, 4, 5, 6]) }
        #expect(TransportError.unspecifiedAddress.handoffError == .transportLost)
    }

    @Test func busyPortIsAddressUnavailable() throws {
        let (listener, _) = try Loopback.sender()
        defer { listener.close() }
        #expect(throws: TransportError.addressUnavailable(errno: EADDRINUSE)) {
            try FrameListener(port: listener.rendezvous.port, tag: [1, 2, 3, 4, 5, 6])
        }
    }
}
