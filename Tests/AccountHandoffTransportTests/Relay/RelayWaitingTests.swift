import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import TestProcesses
import Testing

/// Spec 11.7's handshake bytes and the sender's waiting connection: one at a time, at most 8
/// paired ones open, a renewed code's new token.
@Suite(.timeLimit(.minutes(10))) struct RelayWaitingTests {
    @Test func theHandshakeLineIsLowercaseHexOfTokenAndSide() {
        let token = (0..<32).map { UInt8($0 * 7) }
        let side: [UInt8] = [0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89]
        let line = String(decoding: RelayHandshake.line(relayToken: token, side: side), as: UTF8.self)
        #expect(line == "please relay 00070e151c232a31383f464d545b626970777e858c939aa1a8afb6bdc4cbd2d9 for side abcdef0123456789\n")
        #expect(line.utf8.count == 104)
    }

    /// A receiver's side is fresh per connection and never the sender's (the relay would not
    /// pair equal sides): a draw equal to it is drawn again.
    @Test func aReceiverSideEqualToTheSendersIsDrawnAgain() {
        let senderSide = Array(repeating: UInt8(0), count: 8)
        let first = RelayHandshake.receiverSide(senderSide: senderSide, random: InsecureDeterministicRandom(seed: 3))
        let replay = InsecureDeterministicRandom(seed: 3)
        var drawn = [UInt8](repeating: 0, count: 8)
        drawn.withUnsafeMutableBytes { replay.fill($0) }
        #expect(first == drawn)
        // A source whose first 8 bytes are the sender's side: the second draw is taken.
        let zeroesFirst = ScriptedRandom([senderSide, [1, 2, 3, 4, 5, 6, 7, 8]])
        #expect(RelayHandshake.receiverSide(senderSide: senderSide, random: zeroesFirst) == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test func onlyOkPairs() throws {
        #expect(try RelayHandshake.isPaired(Array("ok".utf8)) == false)
        #expect(try RelayHandshake.isPaired(Array("ok\n".utf8)) == true)
        #expect(throws: TransportError.relayClosed) { try RelayHandshake.isPaired(Array("bad handshake\n".utf8)) }
        #expect(throws: TransportError.relayClosed) { try RelayHandshake.isPaired(Array("impatient\n".utf8)) }
        #expect(throws: TransportError.relayClosed) { try RelayHandshake.isPaired(Array("ok\nX".utf8)) }
    }

    /// A relay that says `ok` to every connection at once and never answers: each paired
    /// connection is the listener's to admit (and it waits for a response); the sender opens
    /// the next one at once, until 8 are open, then no more.
    @Test func theSenderHoldsAtMostEightPairedConnections() async throws {
        let relay = try HostileRelay(.blackHole)
        defer { relay.stop() }
        var patient = RelayedTransfer.configuration
        patient.admissionTimeout = Patience.deadline  // the 8 stay open however slow the machine
        let transfer = try await RelayedTransfer.start(relayPort: relay.port, configuration: patient)
        let statuses = StatusLog(transfer.listener)
        #expect(await Loopback.eventually { relay.handshakeCount >= 8 })
        // The eighth pairing ends the waiting at the relay (the status turns idle); a ninth
        // connection would have been opened then, with the status waiting again.
        #expect(await Loopback.eventually {
            await transfer.listener.statistics.relayPaired == 8 && statuses.all.last == .idle
        })
        #expect(relay.handshakeCount == 8)
        #expect(await transfer.listener.statistics.relayPaired == 8)
        #expect(statuses.all.last == .idle)
        await transfer.sender.cancel()
        #expect(await transfer.senderOutcome == .ended(.cancelled(by: .local)))
    }

    /// A code that expires unscanned is renewed (Spec 11.8): the waiting connection, which
    /// named the old code's token, closes, and one with the new token waits instead. A
    /// receiver of the new code completes; one of the old code finds nobody under its token
    /// and ends as expired.
    @Test func aRenewedCodeWaitsUnderItsNewToken() async throws {
        let relay = try HostileRelay(.honest(tamper: nil, closeAfter: nil))
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port, maximumCodes: 2)
        let first = transfer.payload
        #expect(await Loopback.eventually { relay.handshakeCount >= 1 })
        transfer.clock.set(first.expiryDate)
        #expect(await Loopback.eventually { await transfer.sender.payload != first })
        let renewed = try #require(await transfer.sender.payload)
        let newKeys = try TransportKeys(payload: renewed)
        #expect(await Loopback.eventually { relay.tokens.contains(newKeys.relayToken) })
        #expect(await Loopback.eventually { relay.did("a waiting connection with token \(Hex.encode(transfer.keys.relayToken).prefix(8)) closed") })
        #expect(relay.tokens.first == transfer.keys.relayToken)
        let stale = try transfer.receiver(for: first, pairingWithin: .seconds(3))
        #expect(await stale.run() == .ended(.expired))
        let (sent, received) = await transfer.run(try transfer.receiver(for: renewed))
        #expect(sent == .completed(.imported))
        #expect(received == .completed(.imported))
    }
}
