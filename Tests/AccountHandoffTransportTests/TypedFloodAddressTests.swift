import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Spec 11.10 T10 and T11 against a real sender session over real sockets: an attacker who
/// opens typed connections and never answers its `pakeInit` must not hold the session's 8
/// pending runs, so the honest receiver's run starts at once. Each loopback address
/// (127.0.0.0/8 is all this machine's on Linux) plays one device of the network.
extension TypedFloodTests {
    static let attackerAddress = IPv4Address(bytes: [127, 0, 0, 2])!

    /// One address floods with 40 typed connections: 2 are kept (T10), the rest closed at once
    /// unread; the 2 kept get their runs and hold them (they never answer), and the honest
    /// receiver, from another address, still completes.
    @Test func oneAddressHoldsAtMostTwoRunsAndTheHonestTypedReceiverCompletes() async throws {
        let listener = try FrameListener(configuration: Loopback.sessions, typedWay: RecordingAnnouncer())
        let sender = try testSender(rendezvous: listener.rendezvous.token, channel: listener, typedRoutes: [.localNetwork])
        let typed = Self.typedCodes(of: sender)
        let sent = Task { await sender.run() }
        var codes = typed.makeAsyncIterator()
        let digits = try #require(await codes.next(), "no typed code")
        let endpoint = try #require(listener.typedEndpoint)

        var flood: [RawPeer] = []
        for _ in 0..<40 { flood.append(try await RawPeer.connect(to: endpoint, from: Self.attackerAddress)) }
        let refused = await Loopback.eventually { await listener.statistics.typedRefusedPerAddress == 38 }
        let afterFlood = await listener.statistics
        #expect(refused, "\(afterFlood)")
        var held: [RawPeer] = []
        for peer in flood {
            switch await peer.peerState(within: .seconds(5)) {
            case .sent(let bytes):
                #expect(bytes.count > 3 && bytes[3] == MessageType.pakeInit.rawValue, "\(bytes.prefix(4))")
                held.append(peer)
            case .closed, .open: break
            }
        }
        #expect(held.count == 2, "the two kept connections got their runs")
        #expect(await listener.statistics.typedRunsHandedOver == 2)

        // The honest receiver, from 127.0.0.1, gets a run at once while the attacker holds its two.
        let receiver = try Self.typedReceiver(digits, endpoint: endpoint)
        let accepting = Self.acceptOffers(receiver)
        let received = await receiver.run()
        let senderOutcome = await sent.value
        #expect(received == .completed(.imported))
        #expect(senderOutcome == .completed(.imported))
        await accepting.value
        #expect(await listener.statistics.typedReplyTimedOut == 0, "the attacker's runs were held, not timed out")
        for peer in held { #expect(await peer.waitForClose(), "paired: the attacker's runs are closed (T7)") }
        await listener.close()
    }

    /// Runs that get no reply within the reply deadline are closed (T11) and their places go to
    /// the connections waiting: 4 addresses with 2 connections each hold all 8 places, a 9th
    /// device waits, and it gets its run once the silent ones are closed.
    @Test func silentRunsAreClosedAtTheReplyDeadlineAndTheirPlacesGoToTheWaiting() async throws {
        var configuration = Loopback.sessions
        configuration.typedReplyTimeout = .seconds(1)
        let listener = try FrameListener(configuration: configuration, typedWay: RecordingAnnouncer())
        let sender = try testSender(rendezvous: listener.rendezvous.token, channel: listener, typedRoutes: [.localNetwork])
        let typed = Self.typedCodes(of: sender)
        let sent = Task { await sender.run() }
        var codes = typed.makeAsyncIterator()
        _ = try #require(await codes.next(), "no typed code")
        let endpoint = try #require(listener.typedEndpoint)

        var silent: [RawPeer] = []
        for index in 0..<8 { silent.append(try await RawPeer.connect(to: endpoint, from: IPv4Address(bytes: [127, 0, 2, UInt8(index / 2 + 1)]))) }
        #expect(await Loopback.eventually { await listener.statistics.typedRunsHandedOver == 8 })
        let waiting = try await RawPeer.connect(to: endpoint, from: IPv4Address(bytes: [127, 0, 2, 9]))
        for peer in silent {
            guard case .sent(let bytes) = await peer.peerState(within: .seconds(10)) else {
                Issue.record("a silent connection got no pakeInit")
                continue
            }
            #expect(bytes.count > 3 && bytes[3] == MessageType.pakeInit.rawValue)
        }
        for peer in silent { #expect(await peer.waitForClose(within: .seconds(30)), "closed at the reply deadline") }
        let statistics = await listener.statistics
        #expect(statistics.typedReplyTimedOut >= 8, "\(statistics)")
        guard case .sent(let bytes) = await waiting.peerState(within: .seconds(30)) else {
            Issue.record("the waiting connection never got its run")
            return
        }
        #expect(bytes.count > 3 && bytes[3] == MessageType.pakeInit.rawValue)
        await sender.cancel()
        #expect(await sent.value == .ended(.cancelled(by: .local)))
        await listener.close()
    }

    // MARK: Helpers

    /// The typed codes `sender` shows, as their 11 digits (the updates' only reader).
    static func typedCodes(of sender: HandoffSenderSession) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        Task {
            for await update in sender.updates {
                if case .showCode(_, let typed, _) = update, let typed {
                    continuation.yield(typed.digits)
                    typed.wipe()
                }
            }
            continuation.finish()
        }
        return stream
    }

    /// A receiving device that typed `digits` and found the sender at `endpoint`; it connects from 127.0.0.1.
    static func typedReceiver(_ digits: String, endpoint: TCPRendezvous.Endpoint) throws -> TestReceiver {
        TestReceiver(typedCode: try TypedCode(entry: digits), route: .localNetwork, importer: RecordingImporter(),
                     authenticator: ScriptedAuthenticator(always: .authenticated), registry: .inMemory()) { _, _ in
            try await ConnectionFrameChannel.connectTyped(to: endpoint, configuration: Loopback.sessions)
        }
    }

    /// The receiving person accepts every offered account.
    static func acceptOffers(_ receiver: TestReceiver) -> Task<Void, Never> {
        Task {
            for await update in receiver.updates {
                if case .accountOffered = update { try? await receiver.accept() }
            }
        }
    }
}
