import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import TestProcesses
import Testing

/// Wraps a receiver's channel and runs `beforeFirstSend` with the hello before it goes out.
final class InterceptingChannel: FrameChannel, @unchecked Sendable {
    // Safety of @unchecked Sendable: `intercepted` is only touched under `lock`; the rest is immutable.
    private let inner: any FrameChannel
    private let beforeFirstSend: @Sendable ([UInt8]) async -> Void
    private let lock = NSLock()
    private var intercepted = false

    init(_ inner: any FrameChannel, beforeFirstSend: @escaping @Sendable ([UInt8]) async -> Void) {
        self.inner = inner
        self.beforeFirstSend = beforeFirstSend
    }

    func receive() async throws -> FrameChannelEvent? { try await inner.receive() }
    func send(_ frame: [UInt8], to peer: FramePeer) async throws {
        let first = lock.withLock { () -> Bool in
            defer { intercepted = true }
            return !intercepted
        }
        if first { await beforeFirstSend(frame) }
        try await inner.send(frame, to: peer)
    }
    func close() async { await inner.close() }
}

/// A receiver session of the transport tests: it imports nothing and its person authenticates.
typealias TestReceiver = HandoffReceiverSession<RecordingImporter>

/// A sender session on `channel` whose person authenticates and whose password is fixed.
func testSender(rendezvous: RendezvousToken, channel: any FrameChannel, maximumCodes: Int = 1,
                lifetime: UInt32 = 600, typedRoutes: Set<TypedRoute> = []) throws -> HandoffSenderSession {
    HandoffSenderSession(account: try Loopback.account(), rendezvous: rendezvous, channel: channel,
                         credential: { _ in try SecretBytes(utf8: "correct horse") },
                         authenticator: ScriptedAuthenticator(always: .authenticated), registry: SenderRegistry.inMemory(),
                         options: SenderSessionOptions(configuration: try SenderConfiguration(lifetime: lifetime), maximumCodes: maximumCodes,
                                                       typedRoutes: typedRoutes))
}

/// A receiver session for `payload` whose connector is `connect`.
func testReceiver(_ payload: SessionPayload, connect: @escaping TestReceiver.Connector) throws -> TestReceiver {
    TestReceiver(payload: payload, importer: RecordingImporter(), authenticator: ScriptedAuthenticator(always: .authenticated),
                 registry: ReceiverRegistry.inMemory(), connect: connect)
}

/// Answers for both people: the sending person types the receiving screen's code, the
/// receiving person accepts the account once `beforeAccepting` returns.
func confirmBothSides(_ sender: HandoffSenderSession, _ receiver: TestReceiver,
                      beforeAccepting: @escaping @Sendable () async -> Void = {}) -> Task<Void, Never> {
    People.confirmBoth(sender, receiver, beforeAccepting: beforeAccepting)
}

/// A real sender session on a real listener, and the receiver sessions that scan its QR:
/// whole transfers over TCP on 127.0.0.1.
final class SessionPair: Sendable {
    let listener: FrameListener
    let sender: HandoffSenderSession
    let keys: TransportKeys
    let payload: SessionPayload
    private let running: Task<SenderOutcome, Never>

    private init(listener: FrameListener, sender: HandoffSenderSession, payload: SessionPayload, running: Task<SenderOutcome, Never>) throws {
        self.listener = listener
        self.sender = sender
        self.payload = payload
        self.running = running
        keys = try TransportKeys(payload: payload)
    }

    /// A listener and a running sender session showing its QR. By default the deadlines are
    /// ``Loopback/sessions``' minute: a test that holds a frame back (the hello, while it
    /// delivers copies) must not meet the bind deadline because the machine is loaded.
    static func start(configuration: TransportConfiguration = Loopback.sessions) async throws -> SessionPair {
        let listener = try FrameListener(configuration: configuration)
        let sender = try testSender(rendezvous: listener.rendezvous.token, channel: listener)
        let running = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        return try SessionPair(listener: listener, sender: sender, payload: payload, running: running)
    }

    /// A receiver session whose connector hands its channel to `wrap` (to hold the hello, say).
    func receiver(configuration: TransportConfiguration = Loopback.sessions,
                  wrap: @escaping @Sendable (ConnectionFrameChannel) -> any FrameChannel = { $0 }) throws -> TestReceiver {
        try testReceiver(payload) { payload in
            wrap(try await ConnectionFrameChannel.connect(to: payload, configuration: configuration))
        }
    }

    /// What one transfer gave.
    struct Outcomes: Sendable {
        var sent: SenderOutcome?
        var received: ReceiverOutcome?
        /// From the receiver's start to both ends' outcomes.
        var duration: Duration
        var completed: Bool { sent == .completed(.imported) && received == .completed(.imported) }
    }

    /// Runs the receiver (the sender is already running, see ``startSender()``) with people
    /// who confirm, until both end or `timeout` passes (then both are cancelled).
    func transfer(_ receiver: TestReceiver, sender running: Task<SenderOutcome, Never>, timeout: Duration = Patience.deadline,
                  beforeAccepting: @escaping @Sendable () async -> Void = {}) async -> Outcomes {
        let start = ContinuousClock.now
        let people = confirmBothSides(sender, receiver, beforeAccepting: beforeAccepting)
        let receiving = Task { await receiver.run() }
        let sender = self.sender
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            await receiver.cancel()
            await sender.cancel()
        }
        let received = await receiving.value
        let sent = await running.value
        let duration = ContinuousClock.now - start
        watchdog.cancel()
        await people.value
        return Outcomes(sent: sent, received: received, duration: duration)
    }

    /// The running sender session.
    func startSender() -> Task<SenderOutcome, Never> { running }
}

/// Many connections to a listener from two threads, each played as told, the way an attacker
/// floods: connect, read the challenge, answer, send a hello.
final class AdmissionFlood: @unchecked Sendable {
    // Safety of @unchecked Sendable: `report` and `held` are only touched under `lock`.
    enum Play: Sendable {
        /// A watcher of the network who never saw the QR: the response magic and 16 random
        /// bytes. Each connection then waits for the sender to close it.
        case randomResponse
        /// Someone who saw the QR: the right response. The connection stays open.
        case admitted(TransportKeys)
    }

    struct Report: Sendable, CustomStringConvertible {
        var attempted = 0
        var failedToConnect = 0
        /// Closed by the sender before it sent a challenge (its listener was full).
        var closedBeforeChallenge = 0
        /// Answered and sent a hello.
        var answered = 0
        /// Closed by the sender after the response (the watcher's connections).
        var closedAfterResponse = 0
        /// Sent anything but a challenge, or nothing, after the response.
        var unexpected = 0
        var duration: Duration = .zero
        var description: String {
            "\(attempted) connections in \(duration): \(failedToConnect) failed to connect, \(closedBeforeChallenge) closed before the challenge, "
                + "\(answered) answered and sent a hello, \(closedAfterResponse) closed after the response, \(unexpected) unexpected"
        }
    }

    private let endpoint: TCPRendezvous.Endpoint
    private let count: Int
    private let play: Play
    private let hello: @Sendable () -> [UInt8]
    private let lock = NSLock()
    private var report = Report()
    private var held: [RawPeer] = []
    private let group = DispatchGroup()

    init(_ listener: FrameListener, count: Int, play: Play, hello: @escaping @Sendable () -> [UInt8]) {
        self.endpoint = listener.rendezvous.direct!
        self.count = count
        self.play = play
        self.hello = hello
    }

    /// Starts both threads.
    func start() {
        let start = ContinuousClock.now
        for thread in 0..<2 {
            group.enter()
            Thread { [self] in
                for _ in stride(from: thread, to: count, by: 2) { attack() }
                lock.withLock { report.duration = max(report.duration, ContinuousClock.now - start) }
                group.leave()
            }.start()
        }
    }

    /// Waits until every connection was attempted.
    func finished() async -> Report {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { continuation.resume() }
        }
        return lock.withLock { report }
    }

    /// Closes the connections still held.
    func closeAll() {
        lock.withLock {
            held.forEach { $0.close() }
            held.removeAll()
        }
    }

    private func attack() {
        lock.withLock { report.attempted += 1 }
        guard let peer = try? RawPeer.connectBlocking(to: endpoint, timeout: .seconds(2)) else {
            lock.withLock { report.failedToConnect += 1 }
            return
        }
        guard let challenge = try? peer.readBlocking(exactly: Admission.challengeByteCount, timeout: .seconds(3)) else {
            lock.withLock { report.closedBeforeChallenge += 1 }
            peer.close()
            return
        }
        let response: [UInt8]
        switch play {
        case .randomResponse:
            var tag = [UInt8](repeating: 0, count: TransportKeys.admissionTagByteCount)
            tag.withUnsafeMutableBytes { SystemRandomSource().fill($0) }
            response = Admission.responseMagic + tag
        case .admitted(let keys):
            guard case .answer(let answer) = Admission.answer(challenge, keys: keys) else {
                lock.withLock { report.unexpected += 1 }
                return
            }
            response = answer
        }
        guard (try? peer.writeBlocking(response + FrameStream.encode(hello()))) != nil else {
            lock.withLock { report.closedBeforeChallenge += 1 }
            return
        }
        lock.withLock { report.answered += 1 }
        switch play {
        case .randomResponse:
            let closed = peer.peerStateBlocking(within: .seconds(3)) == .closed
            lock.withLock { if closed { report.closedAfterResponse += 1 } else { report.unexpected += 1 } }
            peer.close()
        case .admitted:
            lock.withLock { held.append(peer) }
        }
    }
}

/// Raises this process's soft descriptor limit to at least `wanted` when the hard limit
/// allows (a flood test holds its 600 client sockets and the listener's 256).
func raiseDescriptorLimit(to wanted: Int = 4096) {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
    limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
    _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
}

/// Median and worst of some durations, in seconds.
func summary(_ durations: [Duration]) -> String {
    let sorted = durations.sorted()
    guard let worst = sorted.last else { return "no runs" }
    func seconds(_ duration: Duration) -> String {
        String(format: "%.2f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
    return "median \(seconds(sorted[sorted.count / 2])), worst \(seconds(worst)) over \(sorted.count) run(s)"
}

/// Someone who saw the QR holds every connection slot of a listener (Spec 11.6): `count`
/// admitted connections, each with a forged hello, and every one the sender closes (or
/// closes before its challenge) is made again at once, the way an attacker keeps a pool full.
/// One thread of its own, blocking calls with deadlines, never the concurrency pool.
final class HeldFlood: @unchecked Sendable {
    // Safety of @unchecked Sendable: `report`, `running` and `full` are only touched under
    // `lock`; the connections only by the flood's thread.
    struct Report: Sendable, CustomStringConvertible {
        /// Connections admitted and holding a hello.
        var held = 0
        /// Closed by the sender before its challenge (its listener was full).
        var closedBeforeChallenge = 0
        /// Closed by the sender after the hello (to make room, or at a deadline).
        var closedWhileHeld = 0
        var failedToConnect = 0
        var description: String {
            "\(held) connections admitted with a hello, \(closedWhileHeld) of them closed by the sender and made again, "
                + "\(closedBeforeChallenge) closed before the challenge, \(failedToConnect) failed to connect"
        }
    }

    private let endpoint: TCPRendezvous.Endpoint
    private let keys: TransportKeys
    private let count: Int
    private let hello: @Sendable () -> [UInt8]
    private let lock = NSLock()
    private var report = Report()
    private var running = true
    private var full = false
    private var finished = false

    init(_ listener: FrameListener, keys: TransportKeys, count: Int, hello: @escaping @Sendable () -> [UInt8]) {
        endpoint = listener.rendezvous.direct!
        self.keys = keys
        self.count = count
        self.hello = hello
    }

    func start() {
        Thread { [self] in run() }.start()
    }

    /// Whether all `count` connections were held at once (at least once).
    var isFull: Bool { lock.withLock { full } }

    /// Stops, closes every connection, and says what happened.
    func stop() -> Report {
        lock.withLock { running = false }
        while !lock.withLock({ finished }) { usleep(5_000) }
        return lock.withLock { report }
    }

    private func run() {
        var slots: [RawPeer?] = Array(repeating: nil, count: count)
        while lock.withLock({ running }) {
            for index in slots.indices where slots[index] == nil {
                slots[index] = open()
                if !lock.withLock({ running }) { break }
            }
            if !slots.contains(where: { $0 == nil }) { lock.withLock { full = true } }
            // Any connection the sender closed is made again on the next round.
            var entries = slots.map { pollfd(fd: $0?.socket.descriptor ?? -1, events: Int16(POLLIN), revents: 0) }
            let waiting = slots.contains { $0 == nil } ? 0 : 20
            guard poll(&entries, nfds_t(entries.count), Int32(waiting)) > 0 else { continue }
            for index in slots.indices where entries[index].revents != 0 {
                guard let peer = slots[index] else { continue }
                let state = (try? peer.socket.readAvailable(maximum: 4096)).map { $0.map(\.isEmpty) ?? false } ?? true
                guard state else { continue }
                peer.close()
                slots[index] = nil
                lock.withLock { report.closedWhileHeld += 1 }
            }
        }
        slots.forEach { $0?.close() }
        lock.withLock { finished = true }
    }

    /// One admitted connection that sent its hello, or `nil`.
    private func open() -> RawPeer? {
        guard let peer = try? RawPeer.connectBlocking(to: endpoint, timeout: .seconds(2)) else {
            lock.withLock { report.failedToConnect += 1 }
            return nil
        }
        guard let challenge = try? peer.readBlocking(exactly: Admission.challengeByteCount, timeout: .seconds(3)),
              case .answer(let response) = Admission.answer(challenge, keys: keys),
              (try? peer.writeBlocking(response + FrameStream.encode(hello()))) != nil else {
            lock.withLock { report.closedBeforeChallenge += 1 }
            peer.close()
            return nil
        }
        lock.withLock { report.held += 1 }
        return peer
    }
}
