import AccountHandoff
import AccountHandoffTransport
import Foundation
import Testing

/// The typed way's listening socket of a ``FrameListener`` (Spec 11.10, rules T1-T7), over
/// real loopback sockets. The announcer here records what the listener asks of it; the Avahi
/// announcer itself runs end to end in `AccountHandoffDiscoveryTests`' `TypedWay` tests.
@Suite struct TypedListenerTests {
    static let nameplate = TypedCode.Nameplate(value: 427)!
    static let offer = TypedOffer(nameplate: nameplate, routes: [.localNetwork])

    @Test func aTypedConnectionWithoutANameplateIsClosedUnread() async throws {
        let announcer = RecordingAnnouncer()
        let listener = try FrameListener(configuration: Loopback.fast, typedWay: announcer)
        defer { Task { await listener.close() } }
        let endpoint = try #require(listener.typedEndpoint)
        #expect(endpoint.port != listener.listeningEndpoint.port, "a port of its own")
        let peer = try await RawPeer.connect(to: endpoint)
        #expect(await peer.waitForClose())
        #expect(await listener.statistics.typedRefused == 1)
        #expect(announcer.calls.isEmpty)
    }

    @Test func aServedNameplateIsAnnouncedAndItsConnectionsReachTheSession() async throws {
        let announcer = RecordingAnnouncer()
        let listener = try FrameListener(configuration: Loopback.fast, typedWay: announcer)
        defer { Task { await listener.close() } }
        let endpoint = try #require(listener.typedEndpoint)
        await listener.serveTyped(Self.offer)
        #expect(announcer.calls == [.announce(Self.nameplate, port: endpoint.port)])

        // No admission: the connection is the session's at once, and frames flow both ways.
        let peer = try await RawPeer.connect(to: endpoint)
        guard case .typedConnection(let typed, .localNetwork)? = try await Loopback.event(listener) else {
            Issue.record("no typed connection")
            return
        }
        try await listener.send([0x04, MessageType.pakeInit.rawValue, 0x01], to: typed)
        #expect(try await peer.receiveFrame() == [0x04, MessageType.pakeInit.rawValue, 0x01])
        try await peer.send(frame: [0x04, MessageType.pakeReply.rawValue, 0x02])
        guard case .frame(let bytes, let from)? = try await Loopback.event(listener) else {
            Issue.record("no frame")
            return
        }
        #expect(bytes == [0x04, MessageType.pakeReply.rawValue, 0x02] && from == typed)

        // A new nameplate (a wrong guess): the old one's connection gets what was sent to it
        // before, then is closed; the new nameplate is announced.
        try await listener.send([0x04, MessageType.pakeRefused.rawValue], to: typed)
        let next = TypedCode.Nameplate(value: 512)!
        await listener.serveTyped(TypedOffer(nameplate: next, routes: [.localNetwork]))
        #expect(try await peer.receiveFrame() == [0x04, MessageType.pakeRefused.rawValue])
        #expect(await peer.waitForClose())
        #expect(announcer.calls.last == .announce(next, port: endpoint.port))

        // Withdrawn: nothing is announced, and new typed connections are closed.
        await listener.serveTyped(nil)
        #expect(announcer.calls.last == .withdraw)
        let late = try await RawPeer.connect(to: endpoint)
        #expect(await late.waitForClose())
    }

    @Test func aHelloOnATypedConnectionClosesIt() async throws {
        let listener = try FrameListener(configuration: Loopback.fast, typedWay: RecordingAnnouncer())
        defer { Task { await listener.close() } }
        await listener.serveTyped(Self.offer)
        let peer = try await RawPeer.connect(to: try #require(listener.typedEndpoint))
        guard case .typedConnection? = try await Loopback.event(listener) else {
            Issue.record("no typed connection")
            return
        }
        try await peer.send(frame: [0x04, MessageType.hello.rawValue, 0x01])
        #expect(await peer.waitForClose())
    }

    @Test func aTakenNameIsReportedWhileItsNameplateIsServed() async throws {
        let announcer = RecordingAnnouncer()
        let listener = try FrameListener(configuration: Loopback.fast, typedWay: announcer)
        defer { Task { await listener.close() } }
        await listener.serveTyped(Self.offer)
        announcer.takeName(TypedCode.Nameplate(value: 999)!)  // stale: another nameplate
        announcer.takeName(Self.nameplate)
        guard case .typedNameTaken(let taken)? = try await Loopback.event(listener) else {
            Issue.record("no taken name")
            return
        }
        #expect(taken == Self.nameplate)
    }
}

/// A flood of typed connections against a real sender session (Spec 11.10 T3-T4, 6.8): whoever
/// is on the network can open them without knowing anything, so they must cost the sender a
/// bounded amount of CPace work and never keep the QR from working.
@Suite(.timeLimit(.minutes(10))) struct TypedFloodTests {
    @Test func aFloodStartsAtMostEightRunsAndTheQRStillCompletes() async throws {
        let announcer = RecordingAnnouncer()
        let listener = try FrameListener(configuration: Loopback.sessions, typedWay: announcer)
        let sender = try testSender(rendezvous: listener.rendezvous.token, channel: listener, typedRoutes: [.localNetwork])
        let sent = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        #expect(await Loopback.eventually { !announcer.calls.isEmpty }, "the typed code is served")
        let endpoint = try #require(listener.typedEndpoint)
        // From 20 addresses, 2 each: as many as one address may hold (T10), so all 40 wait for runs.
        var flood: [RawPeer] = []
        for index in 0..<40 { flood.append(try await RawPeer.connect(to: endpoint, from: IPv4Address(bytes: [127, 0, 1, UInt8(index / 2 + 1)]))) }
        #expect(await Loopback.eventually(within: .seconds(30)) { await listener.statistics.typedRunsHandedOver == 40 })

        let receiver = try testReceiver(payload) { try await ConnectionFrameChannel.connect(to: $0, configuration: Loopback.sessions) }
        let people = confirmBothSides(sender, receiver)
        #expect(await receiver.run() == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        await people.value

        // The QR paired: every typed connection was closed; 8 of them got a pakeInit (8 runs
        // pending at most, each one generator and one scalar multiplication), the others nothing.
        var answered = 0
        for peer in flood {
            var received: [UInt8] = []
            reading: while true {
                switch await peer.peerState(within: .seconds(10)) {
                case .sent(let bytes): received += bytes
                case .closed: break reading
                case .open:
                    Issue.record("a typed connection stayed open after the QR paired")
                    break reading
                }
            }
            if !received.isEmpty {
                answered += 1
                #expect(received.count > 3 && received[3] == MessageType.pakeInit.rawValue, "\(received.prefix(4))")
            }
        }
        #expect(answered == 8)
        #expect(announcer.calls.last == .withdraw)
        await listener.close()
    }
}

/// Records what a listener asks of its announcer, and plays the network's answer that a name is taken.
final class RecordingAnnouncer: TypedWayAnnouncer, @unchecked Sendable {
    // Safety of @unchecked Sendable: every property is touched only under `lock`.
    enum Call: Equatable { case announce(TypedCode.Nameplate, port: UInt16), withdraw }

    private let lock = NSLock()
    private var recorded: [Call] = []
    private var nameTaken: (@Sendable (TypedCode.Nameplate) -> Void)?

    var calls: [Call] { lock.withLock { recorded } }

    func announce(_ nameplate: TypedCode.Nameplate, port: UInt16, nameTaken: @escaping @Sendable (TypedCode.Nameplate) -> Void) {
        lock.withLock {
            recorded.append(.announce(nameplate, port: port))
            self.nameTaken = nameTaken
        }
    }

    func withdraw() { lock.withLock { recorded.append(.withdraw) } }

    func takeName(_ nameplate: TypedCode.Nameplate) { lock.withLock { nameTaken }?(nameplate) }
}
