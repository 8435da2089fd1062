import AccountHandoff
import AccountHandoffTestSupport
import AccountHandoffTransitRelay
@testable import AccountHandoffTransport
import Foundation
import Testing
import TestProcesses

/// Spec 11.7/11.8 through Debian's real transit relay (`twistd3 transitrelay`, package
/// magic-wormhole-transit-relay 0.2.1) on 127.0.0.1: the happy path (relay only, and direct
/// first), expiry, cancel on both sides, and a relay killed and restarted.
@Suite(.startsProcesses, .enabled(if: TransitRelay.twistd != nil, "needs Debian's transit relay: apt-get install magic-wormhole-transit-relay"), .timeLimit(.minutes(10)))
struct TransitRelayTests {
    private static func relay() async throws -> TransitRelay {
        do { return try await TransitRelay.started() } catch {
            Issue.record("\(error.description) \(error.logExcerpt ?? "")")
            throw error
        }
    }

    @Test func relayOnlyCodeCompletesThroughTheRelay() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        let routes = RouteLog()
        let (sent, received) = await transfer.run(try transfer.receiver(progress: routes.note))
        #expect(sent == .completed(.imported))
        #expect(received == .completed(.imported))
        let imported = transfer.importer.record.all
        #expect(imported.count == 1)
        #expect(imported.first?.password == Array(RelayedTransfer.password.utf8))
        #expect(imported.first?.metadata.linkID == RelayedTransfer.account.linkID)
        #expect(imported.first?.metadata.emailAddress == RelayedTransfer.account.emailAddress)
        let route = ConnectionRoute.relay(try #require(TCPRendezvous.Relay(host: RelayHost("127.0.0.1"), port: relay.port)), address: .loopback)
        #expect(routes.events.last == .connected(route))
        #expect(routes.events.first == .connectingThroughRelay(try #require(TCPRendezvous.Relay(host: RelayHost("127.0.0.1"), port: relay.port)),
                                                               address: .loopback))
        let statistics = await transfer.listener.statistics
        #expect(statistics.relayPaired >= 1)
        #expect(statistics.admitted == 1)
    }

    /// The relay named by a DNS name (`localhost`, resolved by getaddrinfo off the concurrency
    /// threads) works as the dotted address does.
    @Test(.slowSlice) func relayNamedByHostNameIsResolved() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayHost: "localhost", relayPort: relay.port)
        let routes = RouteLog()
        let (sent, received) = await transfer.run(try transfer.receiver(progress: routes.note))
        #expect(sent == .completed(.imported))
        #expect(received == .completed(.imported))
        let named = try #require(TCPRendezvous.Relay(host: RelayHost("localhost"), port: relay.port))
        #expect(routes.events.last == .connected(.relay(named, address: .loopback)))
    }

    /// A direct address that refuses at once: the receiver says so and goes to the relay
    /// without waiting for the head start.
    @Test func refusedDirectAddressFallsBackToTheRelayAtOnce() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let (closed, holder) = try refusingLoopbackPort()
        defer { holder.close() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port, direct: false, advertisedDirectPort: closed)
        let routes = RouteLog()
        let start = ContinuousClock.now
        let (sent, received) = await transfer.run(try transfer.receiver(progress: routes.note))
        #expect(sent == .completed(.imported))
        #expect(received == .completed(.imported))
        let direct = try #require(TCPRendezvous.Endpoint(address: .loopback, port: closed))
        #expect(routes.events.prefix(2) == [.connectingDirectly(direct), .directFailed(direct, .connectionRefused)])
        #expect(!routes.events.contains { if case .directSlow = $0 { true } else { false } })
        if case .connected(.relay) = routes.events.last {} else { Issue.record("not connected through the relay: \(routes.events)") }
        _ = start
    }

    /// A direct address that accepts but never challenges (a silent program): after the
    /// 2-second head start the receiver tries the relay too, and the relay's connection wins.
    @Test(.slowSlice) func silentDirectAddressRacesTheRelayAfterTheHeadStart() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let silent = try POSIXSocket.makeTCP()  // accepts (the kernel does), never says a word
        try silent.listen(address: .loopback, port: 0, backlog: 4)
        defer { silent.closeListening() }
        let silentPort = try silent.localPort()
        let transfer = try await RelayedTransfer.start(relayPort: relay.port, direct: false, advertisedDirectPort: silentPort)
        let routes = RouteLog()
        let (sent, received) = await transfer.run(try transfer.receiver(progress: routes.note))
        #expect(sent == .completed(.imported))
        #expect(received == .completed(.imported))
        let direct = try #require(TCPRendezvous.Endpoint(address: .loopback, port: silentPort))
        #expect(routes.events.first == .connectingDirectly(direct))
        #expect(routes.events.contains(.directSlow(direct, .seconds(2))))
        if case .connected(.relay) = routes.events.last {} else { Issue.record("not connected through the relay: \(routes.events)") }
        // The losing direct connection was closed once the relay's won: its peer reads the end.
        let accepted = try await offThePool { () -> RawPeer? in
            guard case .accepted(let socket) = try silent.accept() else { return nil }
            return RawPeer(adopting: socket)
        }
        #expect(await accepted?.waitForClose(within: .seconds(5)) == true)
    }

    /// A code with a working direct address: the direct connection is admitted first and
    /// carries the session; the relay is never asked to pair anything for the receiver.
    @Test(.slowSlice) func workingDirectAddressWinsWithoutTheRelay() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port, direct: true)
        let routes = RouteLog()
        let (sent, received) = await transfer.run(try transfer.receiver(progress: routes.note))
        #expect(sent == .completed(.imported))
        #expect(received == .completed(.imported))
        #expect(routes.events.last == .connected(.direct(transfer.listener.listeningEndpoint)))
        #expect(!routes.events.contains { if case .connectingThroughRelay = $0 { true } else { false } })
        // The head start never ran out: the relay's attempt was cancelled before it (Spec 11.8).
        #expect(routes.events == [.connectingDirectly(transfer.listener.listeningEndpoint), .connected(.direct(transfer.listener.listeningEndpoint))])
        #expect(await transfer.listener.statistics.relayPaired == 0)
    }

    @Test(.slowSlice) func codeExpiresWhileTheSendingPersonDoesNotType() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        let (sent, received) = await transfer.run(try transfer.receiver(), script: .nobodyAnswers) {
            while await transfer.code.code == nil { try? await Task.sleep(for: .milliseconds(20)) }
            transfer.expire()
        }
        #expect(sent == .ended(.expired))
        #expect(received == .ended(.expired))
        #expect(transfer.importer.record.all.isEmpty)
    }

    @Test(.slowSlice) func senderCancelsThroughTheRelay() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        let (sent, received) = await transfer.run(try transfer.receiver(), script: .senderCancelsAfterJoin)
        #expect(sent == .ended(.cancelled(by: .local)))
        #expect(received == .ended(.cancelled(by: .peer)))
        #expect(transfer.importer.record.all.isEmpty)
    }

    @Test(.slowSlice) func receiverCancelsThroughTheRelay() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        let (sent, received) = await transfer.run(try transfer.receiver(), script: .receiverCancelsAtOffer)
        #expect(sent == .ended(.cancelled(by: .peer)))
        #expect(received == .ended(.cancelled(by: .local)))
        #expect(transfer.importer.record.all.isEmpty)
    }

    /// The sending screen goes away (its `run()` task is cancelled) once the receiver joined
    /// through the relay: both devices end as cancelled, and a receiver that scans the code
    /// afterwards finds no sender at the relay.
    @Test(.slowSlice) func senderTaskCancelledThroughTheRelay() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        let (sent, received) = await transfer.run(try transfer.receiver(), script: .senderTaskCancelledAfterJoin)
        #expect(sent == .ended(.cancelled(by: .local)))
        #expect(received == .ended(.cancelled(by: .peer)))
        #expect(transfer.importer.record.all.isEmpty)
        #expect(await transfer.listener.openConnectionCount == 0)
        #expect(await (try transfer.receiver(pairingWithin: .seconds(3))).run() == .ended(.failed(.senderUnreachable)))
    }

    /// The receiving screen goes away (its `run()` task is cancelled) while the account is
    /// offered through the relay: both devices end as cancelled; a later receiver is refused.
    @Test(.slowSlice) func receiverTaskCancelledThroughTheRelay() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        let (sent, received) = await transfer.run(try transfer.receiver(), script: .receiverTaskCancelledAtOffer)
        #expect(sent == .ended(.cancelled(by: .peer)))
        #expect(received == .ended(.cancelled(by: .local)))
        #expect(transfer.importer.record.all.isEmpty)
        #expect(await (try transfer.receiver(pairingWithin: .seconds(3))).run() == .ended(.failed(.senderUnreachable)))
    }

    /// A receiver waiting at the relay for a sender that is not there can be cancelled at
    /// once: the wait does not hold it until the code's end.
    @Test(.slowSlice) func receiverWaitingAtTheRelayCancelsAtOnce() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        await transfer.listener.close()  // the sender no longer waits at the relay
        let routes = RouteLog()
        let receiver = try transfer.receiver(progress: routes.note)
        let receiving = Task { await receiver.run() }
        #expect(await Loopback.eventually { routes.events.contains { if case .connectingThroughRelay = $0 { true } else { false } } })
        await receiver.cancel()
        #expect(await receiving.value == .ended(.cancelled(by: .local)))
        await transfer.sender.cancel()
        _ = await transfer.senderOutcome
    }

    /// The relay dies while the sender waits there and comes back on the same port: the
    /// sender reconnects (every second) and the transfer completes through the new relay.
    @Test(.slowSlice) func relayRestartedWhileTheSenderWaits() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        let statuses = StatusLog(transfer.listener)
        #expect(await Loopback.eventually { statuses.all.contains(.waiting(at: .loopback)) })
        _ = try? await offThePool { relay.kill() }
        #expect(await Loopback.eventually { statuses.all.contains { if case .unreachable = $0 { true } else { false } } })
        try await relay.restarted()
        let (sent, received) = await transfer.run(try transfer.receiver())
        #expect(sent == .completed(.imported))
        #expect(received == .completed(.imported))
        #expect(transfer.importer.record.all.count == 1)
    }

    /// The relay dies in the middle of a session (the code is on the receiving screen): both
    /// devices lose the connection and say so; nothing is imported. The restarted relay then
    /// carries a new transfer.
    @Test func relayKilledMidSessionEndsBothAsTransportLost() async throws {
        let relay = try await Self.relay()
        defer { relay.stop() }
        let transfer = try await RelayedTransfer.start(relayPort: relay.port)
        let (sent, received) = await transfer.run(try transfer.receiver(), script: .nobodyAnswers) {
            while await transfer.code.code == nil { try? await Task.sleep(for: .milliseconds(20)) }
            _ = try? await offThePool { relay.kill() }
        }
        #expect(sent == .ended(.failed(.transportLost)))
        #expect(received == .ended(.failed(.transportLost)))
        #expect(transfer.importer.record.all.isEmpty)
        try await relay.restarted()
        let next = try await RelayedTransfer.start(relayPort: relay.port)
        let (nextSent, nextReceived) = await next.run(try next.receiver())
        #expect(nextSent == .completed(.imported))
        #expect(nextReceived == .completed(.imported))
    }
}

/// Records a receiver's connection progress.
final class RouteLog: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var list: [ConnectionProgress] = []  // under lock

    var note: @Sendable (ConnectionProgress) -> Void { { [self] event in lock.withLock { list.append(event) } } }
    var events: [ConnectionProgress] { lock.withLock { list } }
}

/// Records a listener's relay statuses.
final class StatusLog: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var list: [RelayStatus] = []  // under lock

    init(_ listener: FrameListener) {
        Task { [self] in for await status in listener.relayStatus { lock.withLock { list.append(status) } } }
    }

    var all: [RelayStatus] { lock.withLock { list } }
}

/// A loopback port that refuses connections for as long as the returned socket lives: bound,
/// never listening (a port merely closed could be taken by another test's listener meanwhile).
func refusingLoopbackPort() throws -> (port: UInt16, holder: POSIXSocket) {
    let socket = try POSIXSocket.makeTCP()
    var address = POSIXSocket.socketAddress(.loopback, 0)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw TransportError.addressUnavailable(errno: errno) }
    return (try socket.localPort(), socket)
}
