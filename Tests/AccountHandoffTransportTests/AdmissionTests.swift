import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Admission (Spec 11.4) against single peers on 127.0.0.1, both halves: the listener
/// challenges every connection and lets nothing through without the right response; the
/// connector checks the challenge and answers.
@Suite struct AdmissionTests {
    @Test func everyConnectionIsChallengedAtOnceWithTheSessionHintAndAFreshNonce() async throws {
        let (listener, _, keys) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let first = try await RawPeer.connect(to: listener)
        let second = try await RawPeer.connect(to: listener)
        let challenges = [try await first.read(exactly: Admission.challengeByteCount), try await second.read(exactly: Admission.challengeByteCount)]
        for challenge in challenges {
            #expect(Array(challenge.prefix(4)) == Array("AH4A".utf8))
            #expect(Array(challenge[4..<12]) == keys.sessionHint)
        }
        #expect(challenges[0][12...] != challenges[1][12...])
    }

    @Test func aRightResponseAdmitsAndFramesFlowBothWays() async throws {
        let (listener, _, keys) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let peer = try await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode([0x02, 0x07, 1, 2, 3]))
        let event = try #require(try await Loopback.event(listener)?.frame)
        #expect(event.bytes == [0x02, 0x07, 1, 2, 3])
        try await listener.send([9, 9], to: event.peer)
        #expect(try await peer.receiveFrame() == [9, 9])
        #expect(await listener.statistics.admitted == 1)
    }

    @Test func aWrongResponseIsClosedAndNothingReachesTheSession() async throws {
        let (listener, payload, keys) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let peer = try await RawPeer.connect(to: listener)
        _ = try await peer.read(exactly: Admission.challengeByteCount)
        // What a watcher of an earlier connection could send: the magic, an old tag, a hello.
        let staleTag = keys.admissionTag(challengeNonce: [UInt8](repeating: 7, count: 16))
        try await peer.write(Admission.responseMagic + staleTag + FrameStream.encode(Loopback.forgedHello(for: payload)))
        #expect(await peer.waitForClose())
        #expect(try await Loopback.event(listener, within: .milliseconds(300)) == nil)
        // The peer can see the close before the listener's statistics count it.
        #expect(await Loopback.eventually { await listener.statistics.refusedAdmission == 1 })
        let statistics = await listener.statistics
        #expect(statistics.admitted == 0)
        #expect(statistics.hellosHandedOver == 0)
    }

    @Test func aWrongMagicIsClosedAtItsFirstByte() async throws {
        let (listener, _, _) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let peer = try await RawPeer.connect(to: listener)
        _ = try await peer.read(exactly: Admission.challengeByteCount)
        try await peer.write(Array("G".utf8))
        #expect(await peer.waitForClose())
        #expect(await Loopback.eventually { await listener.statistics.refusedAdmission == 1 })
    }

    @Test func aSilentConnectionIsClosedAtTheAdmissionDeadline() async throws {
        let (listener, _, _) = try Loopback.listener(Loopback.shortAdmission)
        defer { Task { await listener.close() } }
        let start = ContinuousClock.now
        let peer = try await RawPeer.connect(to: listener)
        _ = try await peer.read(exactly: Admission.challengeByteCount)
        #expect(await peer.waitForClose(within: .seconds(3)))
        #expect(ContinuousClock.now - start >= Loopback.shortAdmission.admissionTimeout)
        #expect(await listener.statistics.admissionTimedOut == 1)
    }

    @Test func aResponseTrickledByteByByteIsHeldToTheAdmissionDeadline() async throws {
        let (listener, _, keys) = try Loopback.listener(Loopback.shortAdmission)
        defer { Task { await listener.close() } }
        let peer = try await RawPeer.connect(to: listener)
        let challenge = try await peer.read(exactly: Admission.challengeByteCount)
        guard case .answer(let response) = Admission.answer(challenge, keys: keys) else { Issue.record("no answer"); return }
        // One right byte every 60 ms: 1.2 s for the response, against a 400 ms deadline.
        var sent = 0
        while sent < response.count, (try? await peer.write([response[sent]])) != nil, await peer.peerState(within: .milliseconds(60)) == .open {
            sent += 1
        }
        #expect(sent < response.count)
        #expect(await peer.waitForClose())
        let statistics = await listener.statistics
        #expect(statistics.admissionTimedOut == 1)
        #expect(statistics.admitted == 0)
    }

    @Test func connectionsAcceptedBeforeTheKeysAreChallengedWhenTheyCome() async throws {
        let listener = try FrameListener(configuration: Loopback.fast)
        defer { Task { await listener.close() } }
        let peer = try await RawPeer.connect(to: listener)
        #expect(await peer.peerState(within: .milliseconds(100)) == .open)
        let (_, keys) = try Loopback.payload(for: listener)
        listener.setKeys(keys)
        try await peer.answerChallenge(keys: keys, then: FrameStream.encode([0x02, 0x07]))
        #expect(try await Loopback.event(listener)?.frame?.bytes == [0x02, 0x07])
    }

    /// Spec 11.8: a renewed QR keeps the port; connections of the old QR are closed, new ones
    /// are challenged with the new hint, and a receiver holding the old QR is told so.
    @Test func renewalClosesTheOldQRsConnectionsAndTheConnectorSeesTheRenewedCode() async throws {
        let (listener, oldPayload, oldKeys) = try Loopback.listener(seed: 1)
        defer { Task { await listener.close() } }
        let oldPeer = try await RawPeer.admitted(to: listener, keys: oldKeys)
        #expect(await Loopback.eventually { await listener.statistics.admitted == 1 })
        let (_, newKeys) = try Loopback.payload(for: listener, seed: 2)
        listener.setKeys(newKeys)
        #expect(await oldPeer.waitForClose())
        #expect(await Loopback.eventually { await listener.statistics.closedForRenewal == 1 })
        let newPeer = try await RawPeer.connect(to: listener)
        #expect(try await Array(newPeer.read(exactly: Admission.challengeByteCount)[4..<12]) == newKeys.sessionHint)
        await #expect(throws: TransportError.codeRenewed) {
            _ = try await ConnectionFrameChannel.connect(to: oldPayload, configuration: Loopback.fast)
        }
    }

    @Test func theConnectorAnswersAndItsFramesFlow() async throws {
        let (listener, payload, _) = try Loopback.listener()
        defer { Task { await listener.close() } }
        let channel = try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.fast)
        try await channel.send([0x02, 0x07, 0xAA], to: ConnectionFrameChannel.sender)
        let event = try #require(try await Loopback.event(listener)?.frame)
        #expect(event.bytes == [0x02, 0x07, 0xAA])
        try await listener.send([0x55], to: event.peer)
        #expect(try await Loopback.event(channel)?.frame?.bytes == [0x55])
        await channel.close()
        #expect(try await Loopback.event(listener)?.leftPeer == event.peer)
    }

    @Test func theConnectorRefusesAnEndThatIsNotAHandoffSender() async throws {
        let server = try SilentServer(greeting: Array("SSH-2.0-OpenSSH_9.2\r\n".utf8))
        defer { server.stop() }
        let (_, payload) = try server.payload()
        await #expect(throws: TransportError.notAHandoffSender) {
            _ = try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.fast)
        }
    }

    @Test func theConnectorWaitsForTheChallengeOnlyUntilTheAdmissionDeadline() async throws {
        let server = try SilentServer(greeting: [])
        defer { server.stop() }
        let (_, payload) = try server.payload()
        let start = ContinuousClock.now
        await #expect(throws: TransportError.timedOut) {
            _ = try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.shortAdmission)
        }
        #expect(ContinuousClock.now - start >= Loopback.shortAdmission.admissionTimeout)
    }

    @Test func aCancelledConnectEndsAtOnce() async throws {
        let server = try SilentServer(greeting: [])
        defer { server.stop() }
        let (_, payload) = try server.payload()
        let connecting = Task { try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.sessions) }
        // Cancelled once it waits for the challenge: the server accepted its connection.
        #expect(await Loopback.eventually { server.acceptedCount >= 1 }, "the connector never connected")
        let start = ContinuousClock.now
        connecting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await connecting.value }
        // Without the cancel it would wait for the admission deadline of `Loopback.sessions`
        // and end with `timedOut`; the cancel ends it before (a loaded machine may take long to
        // run the cancelled task at all, so no shorter bound is a fact about the code).
        #expect(ContinuousClock.now - start < Loopback.sessions.admissionTimeout)
    }
}

/// A TCP server on 127.0.0.1 that accepts connections, writes `greeting` on each and then
/// says nothing: a program that is not a handoff sender.
final class SilentServer: @unchecked Sendable {
    // Safety of @unchecked Sendable: `accepted` and `running` are only touched under `lock`.
    let socket: POSIXSocket
    let port: UInt16
    private let lock = NSLock()
    private var accepted: [POSIXSocket] = []
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(greeting: [UInt8]) throws {
        socket = try POSIXSocket.makeTCP()
        try socket.listen(address: .loopback, port: 0, backlog: 16)
        port = try socket.localPort()
        Thread { [self] in
            while lock.withLock({ running }) {
                guard (try? RawPeer.wait(socket, for: Int16(POLLIN), until: .now + .milliseconds(20))) == true,
                      case .accepted(let connection)? = try? socket.accept() else { continue }
                if !greeting.isEmpty { _ = try? connection.writeSome(greeting[...]) }
                lock.withLock { accepted.append(connection) }
            }
            done.signal()
        }.start()
    }

    /// A QR naming this server.
    func payload() throws -> (TCPRendezvous, SessionPayload) {
        let rendezvous = TCPRendezvous(address: .loopback, port: port)!
        let sender = try HandoffSender.start(account: Loopback.account(), rendezvous: rendezvous.token,
                                             random: InsecureDeterministicRandom(seed: 9), now: Loopback.now)
        return (rendezvous, sender.payload)
    }

    /// How many connections it accepted and holds.
    var acceptedCount: Int { lock.withLock { accepted.count } }

    /// The oldest connection accepted and not yet taken; the server forgets it.
    func takeAccepted() -> POSIXSocket? {
        lock.withLock { accepted.isEmpty ? nil : accepted.removeFirst() }
    }

    func stop() {
        lock.withLock { running = false }
        done.wait()
        socket.close()
        lock.withLock { accepted.forEach { $0.close() } }
    }
}
