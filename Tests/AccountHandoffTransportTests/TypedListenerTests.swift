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
