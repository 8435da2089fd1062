import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import TestProcesses
import Testing

/// Shared pieces for tests that run real sockets on 127.0.0.1.
enum Loopback {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    /// Small limits (4 connections, 3 ignored frames, a short linger) and long deadlines: on a
    /// loaded machine a test task can wait minutes for its turn (seen: 46 s while the whole
    /// suite and a build shared 2 cores, over 120 s beside two busy loops), so the deadlines
    /// are ``Patience/deadline``, and a test that pins one deadline shortens only
    /// that one (``shortAdmission``, ``shortBind``, ``shortRead``) and asserts only lower
    /// bounds on it.
    static func configuration(admission: Duration = Patience.deadline, bind: Duration = Patience.deadline,
                              read: Duration = Patience.deadline) -> TransportConfiguration {
        TransportConfiguration(connectTimeout: Patience.deadline, admissionTimeout: admission, bindTimeout: bind, readTimeout: read,
                               writeTimeout: Patience.deadline, closeLinger: .milliseconds(200), maximumConnections: 4,
                               maximumIgnoredFrames: 3)
    }

    static let fast = configuration()
    static let shortAdmission = configuration(admission: .milliseconds(400))
    static let shortBind = configuration(bind: .milliseconds(700))
    static let shortRead = configuration(read: .milliseconds(400))

    /// For whole sessions through the drivers, which run on the threads that all tests' async
    /// code shares: while other suites keep those busy (2 on a 2-core machine) a driver can
    /// wait many seconds for its turn, so the deadlines are ``Patience/deadline`` (these tests
    /// are about the session over real sockets; the admission tests pin the deadlines). A short
    /// linger keeps the tests quick.
    static let sessions = TransportConfiguration(connectTimeout: Patience.deadline, admissionTimeout: Patience.deadline,
                                                 bindTimeout: Patience.deadline, readTimeout: Patience.deadline,
                                                 writeTimeout: Patience.deadline, closeLinger: .milliseconds(200),
                                                 typedReplyTimeout: Patience.deadline)

    static func account() throws -> AccountMetadata {
        try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Ada", emailAddress: "ada@example.org",
                            username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
    }

    /// A sender's QR naming `listener` (no session runs): its payload and transport keys.
    static func payload(for listener: FrameListener, seed: UInt64 = 1) throws -> (SessionPayload, TransportKeys) {
        let sender = try HandoffSender.start(account: account(), rendezvous: listener.rendezvous.token,
                                             random: InsecureDeterministicRandom(seed: seed), now: now)
        return (sender.payload, try TransportKeys(payload: sender.payload))
    }

    /// A listener with the keys of a QR that names it.
    static func listener(_ configuration: TransportConfiguration = fast, seed: UInt64 = 1) throws
        -> (listener: FrameListener, payload: SessionPayload, keys: TransportKeys) {
        let listener = try FrameListener(configuration: configuration)
        let (payload, keys) = try payload(for: listener, seed: seed)
        listener.setKeys(keys)
        return (listener, payload, keys)
    }

    /// A receiver's hello for `payload`, as bytes, from a scan with `seed`.
    static func hello(for payload: SessionPayload, seed: UInt64) throws -> [UInt8] {
        let (_, step) = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: seed), now: now)
        guard case .send(let bytes)? = step.actions.first else { throw CancellationError() }
        return bytes
    }

    /// A forged hello for `payload`'s transfer: the right header, a random key and a random MAC.
    static func forgedHello(for payload: SessionPayload) -> [UInt8] {
        var body = [UInt8](repeating: 0, count: 64)
        body.withUnsafeMutableBytes { SystemRandomSource().fill($0) }
        return [SessionPayload.currentVersion, MessageType.hello.rawValue] + payload.transferID.bytes + [0, 0, 0, 0, 0, 64] + body
    }

    /// The next event within `timeout`, or `nil`.
    static func event(_ channel: any FrameChannel, within timeout: Duration = .seconds(30)) async throws -> FrameChannelEvent? {
        try await withThrowingTaskGroup(of: FrameChannelEvent?.self) { group in
            group.addTask { try await channel.receive() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TimedOut()
            }
            defer { group.cancelAll() }
            do { return try await group.next() ?? nil } catch is TimedOut { return nil }
        }
    }

    struct TimedOut: Error {}

    /// Waits until `condition` holds or `timeout` passes; whether it held.
    static func eventually(within timeout: Duration = Patience.deadline, _ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }
}

extension FrameChannelEvent {
    /// The frame's bytes and peer, or `nil` for another event.
    var frame: (bytes: [UInt8], peer: FramePeer)? {
        if case .frame(let bytes, let peer) = self { return (bytes, peer) }
        return nil
    }

    /// The peer that left, or `nil`.
    var leftPeer: FramePeer? {
        if case .peerLeft(let peer) = self { return peer }
        return nil
    }
}

/// Runs blocking test I/O on a Dispatch thread, never on the Swift concurrency pool: on a
/// 2-core machine that pool has 2 threads, and a test that blocked one in `poll` would starve
/// the session drivers of every other test.
func offThePool<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Swift.Result { try body() }) }
    }
}

/// A plain TCP client for tests, written the way a stray or hostile local program would talk:
/// calls with deadlines (by `poll`, off the concurrency pool), no library framing unless the
/// test builds it. The `…Blocking` forms are for threads of the test's own.
final class RawPeer: @unchecked Sendable {
    // Safety of @unchecked Sendable: each peer is used by one thread at a time.
    let socket: POSIXSocket

    private init(socket: POSIXSocket) { self.socket = socket }

    /// Wraps a socket this test accepted.
    convenience init(adopting socket: POSIXSocket) { self.init(socket: socket) }

    deinit { socket.close() }

    // MARK: Async forms

    /// Connects to `endpoint` within `timeout`, from `source` when given (any 127.0.0.0/8
    /// address is this machine's on Linux, so one test plays devices with different addresses).
    static func connect(to endpoint: TCPRendezvous.Endpoint, from source: IPv4Address? = nil, timeout: Duration = .seconds(2)) async throws -> RawPeer {
        try await offThePool { try connectBlocking(to: endpoint, from: source, timeout: timeout) }
    }

    /// Connects to the listener's direct address.
    static func connect(to listener: FrameListener, timeout: Duration = .seconds(2)) async throws -> RawPeer {
        try await connect(to: listener.rendezvous.direct!, timeout: timeout)
    }

    /// Connects, reads the challenge and answers it as someone who saw the QR, then sends `bytes`.
    static func admitted(to listener: FrameListener, keys: TransportKeys, sending bytes: [UInt8] = []) async throws -> RawPeer {
        let endpoint = listener.rendezvous.direct!
        return try await offThePool {
            let peer = try connectBlocking(to: endpoint)
            try peer.answerChallengeBlocking(keys: keys, then: bytes)
            return peer
        }
    }

    /// Reads the 28-byte challenge and sends the response (and `then`, in the same write).
    func answerChallenge(keys: TransportKeys, then bytes: [UInt8] = []) async throws {
        try await offThePool { try self.answerChallengeBlocking(keys: keys, then: bytes) }
    }

    /// Writes all of `bytes` within `timeout`.
    func write(_ bytes: [UInt8], timeout: Duration = .seconds(2)) async throws {
        try await offThePool { try self.writeBlocking(bytes, timeout: timeout) }
    }

    /// Writes one frame with its length prefix.
    func send(frame: [UInt8]) async throws {
        try await write(FrameStream.encode(frame))
    }

    /// Reads exactly `count` bytes within `timeout`.
    func read(exactly count: Int, timeout: Duration = .seconds(3)) async throws -> [UInt8] {
        try await offThePool { try self.readBlocking(exactly: count, timeout: timeout) }
    }

    /// Reads one length-prefixed frame within `timeout`.
    func receiveFrame(timeout: Duration = .seconds(3)) async throws -> [UInt8] {
        try await offThePool {
            let prefix = try self.readBlocking(exactly: 2, timeout: timeout)
            return try self.readBlocking(exactly: Int(prefix[0]) << 8 | Int(prefix[1]), timeout: timeout)
        }
    }

    /// What the other end did within `timeout`: `.closed` at end of stream or reset, `.open`
    /// when nothing arrived, or the bytes it sent.
    func peerState(within timeout: Duration = .seconds(2)) async -> PeerState {
        (try? await offThePool { self.peerStateBlocking(within: timeout) }) ?? .open
    }

    /// Waits for the other end to close, reading and dropping what it sends; whether it did.
    func waitForClose(within timeout: Duration = .seconds(10)) async -> Bool {
        (try? await offThePool {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                switch self.peerStateBlocking(within: deadline - ContinuousClock.now) {
                case .closed: return true
                case .open: return false
                case .sent: continue
                }
            }
            return false
        }) ?? false
    }

    enum PeerState: Equatable, Sendable {
        case open, closed, sent([UInt8])
    }

    func close() { socket.close() }

    // MARK: Blocking forms

    static func connectBlocking(to endpoint: TCPRendezvous.Endpoint, from source: IPv4Address? = nil,
                                timeout: Duration = .seconds(2)) throws(TransportError) -> RawPeer {
        let socket = try POSIXSocket.makeTCP()
        if let source {
            var address = POSIXSocket.socketAddress(source, 0)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                socket.close()
                throw .system(operation: "bind", errno: errno)
            }
        }
        if try !socket.startConnect(address: endpoint.address, port: endpoint.port) {
            guard try wait(socket, for: Int16(POLLOUT), until: .now + timeout) else { throw .timedOut }
            try socket.finishConnect()
        }
        return RawPeer(socket: socket)
    }

    func answerChallengeBlocking(keys: TransportKeys, then bytes: [UInt8] = [], timeout: Duration = .seconds(3)) throws {
        let challenge = try readBlocking(exactly: Admission.challengeByteCount, timeout: timeout)
        guard case .answer(let response) = Admission.answer(challenge, keys: keys) else { throw TransportError.notAHandoffSender }
        try writeBlocking(response + bytes)
    }

    func writeBlocking(_ bytes: [UInt8], timeout: Duration = .seconds(2)) throws(TransportError) {
        let deadline = ContinuousClock.now + timeout
        var offset = 0
        while offset < bytes.count {
            offset += try socket.writeSome(bytes[offset...])
            if offset < bytes.count {
                guard try Self.wait(socket, for: Int16(POLLOUT), until: deadline) else { throw .timedOut }
            }
        }
    }

    /// - Throws: ``TransportError/closedByPeer`` at end of stream, ``TransportError/timedOut``.
    func readBlocking(exactly count: Int, timeout: Duration = .seconds(3)) throws(TransportError) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        while bytes.count < count {
            guard try Self.wait(socket, for: Int16(POLLIN), until: deadline) else { throw .timedOut }
            guard let chunk = try socket.readAvailable(maximum: count - bytes.count) else { continue }
            guard !chunk.isEmpty else { throw .closedByPeer }
            bytes += chunk
        }
        return bytes
    }

    func peerStateBlocking(within timeout: Duration) -> PeerState {
        guard (try? Self.wait(socket, for: Int16(POLLIN), until: .now + timeout)) == true else { return .open }
        do {
            guard let bytes = try socket.readAvailable(maximum: 65536) else { return .open }
            return bytes.isEmpty ? .closed : .sent(bytes)
        } catch {
            return .closed
        }
    }

    /// `poll` until `socket` is ready for `events` or `deadline` passes.
    static func wait(_ socket: POSIXSocket, for events: Int16, until deadline: ContinuousClock.Instant) throws(TransportError) -> Bool {
        guard socket.isOpen else { throw .closedLocally }
        while true {
            var entry = pollfd(fd: socket.descriptor, events: events, revents: 0)
            let remaining = ContinuousClock.now.duration(to: deadline)
            let milliseconds = remaining <= .zero ? 0 : Int32(clamping: remaining.components.seconds * 1000
                + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            let status = poll(&entry, 1, milliseconds)
            if status > 0 { return true }
            if status == 0 { return false }
            guard errno == EINTR else { throw .system(operation: "poll", errno: errno) }
        }
    }
}
