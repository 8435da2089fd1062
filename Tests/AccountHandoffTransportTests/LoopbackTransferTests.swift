import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Whole sessions over real TCP on 127.0.0.1, with the sans-IO state machines on each end.
@Suite struct LoopbackTransferTests {
    @Test func completeTransferOverLoopback() throws {
        let (listener, sender) = try Loopback.sender()
        defer { listener.close() }
        let rendezvous = try TCPRendezvous(token: sender.payload.rendezvous)
        #expect(rendezvous == listener.rendezvous)
        let connection = try FrameConnection.connect(to: rendezvous, configuration: Loopback.fast)
        defer { connection.close() }
        let (receiver, scanActions) = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: 9), now: Loopback.now)
        try connection.send(try #require(Loopback.sent(scanActions)))

        guard case .connected(let peer) = try Loopback.event(listener) else { Issue.record("no connection"); return }
        guard case .frame(peer, let hello) = try Loopback.event(listener) else { Issue.record("no hello"); return }
        let shown = try sender.handle(.frameReceived(hello), now: Loopback.now)
        guard case .showShortCode(let senderCode) = shown.first, case .showShortCode(let receiverCode) = scanActions.last else {
            Issue.record("no short codes"); return
        }
        #expect(senderCode == receiverCode)
        try listener.bind(peer)  // the hello authenticated: the session binds this connection

        try listener.send(try #require(Loopback.sent(try sender.handle(.codeConfirmed, now: Loopback.now))), to: peer)
        let offerActions = try receiver.handle(.frameReceived(connection.receive(timeout: .seconds(2))), now: Loopback.now)
        guard case .showAccount = offerActions.first else { Issue.record("no offer: \(offerActions)"); return }
        try connection.send(try #require(Loopback.sent(try receiver.handle(.codeConfirmed, now: Loopback.now))))
        guard case .frame(peer, let accept) = try Loopback.event(listener) else { Issue.record("no accept"); return }
        guard case .requestCredential = try sender.handle(.frameReceived(accept), now: Loopback.now).first else { Issue.record("no request"); return }
        let credential = try sender.handle(.credentialProvided(SecretBytes(utf8: "correct horse")), now: Loopback.now)
        try listener.send(try #require(Loopback.sent(credential)), to: peer)
        let delivered = try receiver.handle(.frameReceived(connection.receive(timeout: .seconds(2))), now: Loopback.now)
        guard case .deliverAccount(let imported) = delivered.first else { Issue.record("no delivery: \(delivered)"); return }
        #expect(imported.credential.constantTimeEquals(SecretBytes(utf8: "correct horse")))
        let receipt = try receiver.handle(.importFinished(.imported), now: Loopback.now)
        try connection.send(try #require(Loopback.sent(receipt)))
        connection.close()

        guard case .frame(peer, let receiptFrame) = try Loopback.event(listener) else { Issue.record("no receipt"); return }
        guard case .finished(.completed(.imported)) = try sender.handle(.frameReceived(receiptFrame), now: Loopback.now).last else {
            Issue.record("receipt not accepted"); return
        }
        #expect(sender.outcome == .completed(.imported))
        guard case .disconnected(peer, .closedByPeer) = try Loopback.event(listener) else { Issue.record("no clean end"); return }
    }

    @Test func strayConnectionWithoutTagNeverReachesTheSession() throws {
        let (listener, sender) = try Loopback.sender()
        defer { listener.close() }
        let stray = try Loopback.rawConnection(to: listener.rendezvous, sending: Array("GET / HTTP/1.1\r\n\r\n".utf8))
        defer { stray.close() }
        #expect(try listener.next(timeout: .milliseconds(200)) == nil)
        #expect(listener.droppedConnectionCount == 1)
        #expect(listener.openConnectionCount == 0)
        #expect(sender.state == .awaitingHello)

        // The real receiver still gets through.
        let connection = try FrameConnection.connect(to: listener.rendezvous, configuration: Loopback.fast)
        defer { connection.close() }
        let (_, actions) = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: 3), now: Loopback.now)
        try connection.send(try #require(Loopback.sent(actions)))
        guard case .connected = try Loopback.event(listener), case .frame(_, let hello) = try Loopback.event(listener) else {
            Issue.record("real receiver not admitted"); return
        }
        guard case .showShortCode = try sender.handle(.frameReceived(hello), now: Loopback.now).first else { Issue.record("hello refused"); return }
    }

    @Test func taggedConnectionSendingJunkIsIgnoredAndDroppedWhileTheSessionWaits() throws {
        let (listener, sender) = try Loopback.sender()
        defer { listener.close() }
        let junk: [UInt8] = Array(repeating: 0x41, count: 40)
        let stray = try Loopback.rawConnection(to: listener.rendezvous, sending: listener.rendezvous.preamble + FrameStream.encode(junk))
        defer { stray.close() }
        guard case .connected(let strayID) = try Loopback.event(listener),
              case .frame(strayID, let frame) = try Loopback.event(listener) else { Issue.record("no junk frame"); return }
        let actions = try sender.handle(.frameReceived(frame), now: Loopback.now)
        guard case .ignored(.unsupportedVersion(0x41)) = actions.first, actions.count == 1 else { Issue.record("\(actions)"); return }
        listener.disconnect(strayID)
        #expect(sender.state == .awaitingHello)
        #expect(listener.openConnectionCount == 0)
    }

    @Test func droppedConnectionBecomesTransportLost() throws {
        let (listener, sender) = try Loopback.sender()
        defer { listener.close() }
        let connection = try FrameConnection.connect(to: listener.rendezvous, configuration: Loopback.fast)
        let (_, actions) = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: 4), now: Loopback.now)
        try connection.send(try #require(Loopback.sent(actions)))
        connection.close()
        guard case .connected(let peer) = try Loopback.event(listener), case .frame(peer, let hello) = try Loopback.event(listener) else {
            Issue.record("no hello"); return
        }
        guard case .showShortCode = try sender.handle(.frameReceived(hello), now: Loopback.now).first else { Issue.record("hello refused"); return }
        try listener.bind(peer)
        guard case .disconnected(peer, let error) = try Loopback.event(listener) else { Issue.record("no disconnect"); return }
        #expect(error == .closedByPeer)
        #expect(error.handoffError == .transportLost)
        let ended = try sender.handle(.transportLost, now: Loopback.now)
        guard case .finished(.failed(.transportLost)) = ended.first else { Issue.record("\(ended)"); return }
    }

    @Test func senderCancelReachesTheReceiverBeforeTheCleanClose() throws {
        let (listener, sender) = try Loopback.sender()
        let connection = try FrameConnection.connect(to: listener.rendezvous, configuration: Loopback.fast)
        defer { connection.close() }
        let (receiver, actions) = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: 5), now: Loopback.now)
        try connection.send(try #require(Loopback.sent(actions)))
        guard case .connected(let peer) = try Loopback.event(listener), case .frame(peer, let hello) = try Loopback.event(listener) else {
            Issue.record("no hello"); return
        }
        guard case .showShortCode = try sender.handle(.frameReceived(hello), now: Loopback.now).first else { Issue.record("hello refused"); return }
        try listener.bind(peer)
        try listener.send(try #require(Loopback.sent(try sender.handle(.cancel, now: Loopback.now))), to: peer)
        listener.close()
        let ended = try receiver.handle(.frameReceived(connection.receive(timeout: .seconds(2))), now: Loopback.now)
        guard case .finished(.cancelled(by: .peer)) = ended.first else { Issue.record("\(ended)"); return }
        #expect(throws: TransportError.closedByPeer) { try connection.receive(timeout: .seconds(2)) }
    }
}
