import AccountHandoff
@testable import AccountHandoffTransport
import Foundation

/// A transit relay written for the tests (not a product): it speaks the magic-wormhole
/// handshake of Spec 11.7 (`please relay TOKEN for side SIDE\n`, `ok\n`) on 127.0.0.1, and
/// per test misbehaves as told: it tampers with the stream it copies (drop, delay, duplicate,
/// reorder, truncate, flip bits, inject), pairs devices with the wrong party (an attacker, an
/// impostor of the sender, two senders together), replays an old session, holds connections
/// open for ever, or closes after a number of bytes. It records every byte it receives, so a
/// test can check that nothing secret ever passed through it in the clear.
///
/// It reads the copied stream as Spec 11.4/11.5 lays it out (the admission challenge or
/// response, then length-prefixed frames), so it can aim at one frame. Blocking sockets on
/// threads of its own, never on the Swift concurrency pool.
final class HostileRelay: @unchecked Sendable {
    // Safety of @unchecked Sendable: every mutable field is only touched under `lock`.

    enum Direction: Hashable, Sendable {
        case senderToReceiver, receiverToSender

        /// Bytes of the admission message that opens this direction (Spec 11.4).
        var admissionByteCount: Int { self == .senderToReceiver ? Admission.challengeByteCount : Admission.responseByteCount }
    }

    /// One piece of the copied stream: the admission message (`index` 0) or a frame
    /// (`index` 1, 2, ... in its direction), with its length prefix.
    struct Unit: Sendable {
        let direction: Direction
        let index: Int
        let bytes: [UInt8]
        /// The frame's type byte (Spec 3.2), for frames.
        var type: UInt8? { index > 0 && bytes.count > 3 ? bytes[3] : nil }
        /// The frame without its length prefix.
        var frame: [UInt8] { index > 0 ? Array(bytes.dropFirst(2)) : bytes }
    }

    /// What the relay writes for a unit, in order.
    enum Output: Sendable {
        case forward([UInt8])
        case pause(Duration)
        /// A line for the relay's log (what it did).
        case note(String)
        /// Close both connections of the pair at once.
        case closeBoth
    }

    /// Decides what becomes of each unit of an honestly paired stream.
    typealias Tamper = @Sendable (Unit) -> [Output]

    /// How the relay pairs and copies.
    enum Behaviour: Sendable {
        /// Pairs as Debian's relay does and copies through `tamper`; with `closeAfter`, closes
        /// both connections once that many sender-to-receiver bytes went through (first pair only).
        case honest(tamper: Tamper?, closeAfter: Int?)
        /// Reads every handshake and never answers: every connection is held open for ever.
        case neverPairs
        /// Says `ok` to every connection at once, pairs none, and swallows what it gets.
        case blackHole
        /// Pairs the sender's first connection with an attacker who never saw the QR (a
        /// random admission tag and a forged hello), then behaves.
        case pairsTheSenderWithAnAttacker
        /// Learns the session hint from the sender's first connection (paired with the
        /// attacker), then pairs the receiver's first connection with an impostor of the
        /// sender that challenges with that hint, takes the response and the hello, and
        /// closes. Then behaves.
        case impersonatesTheSender
        /// Pairs the sender's first two connections with each other, then behaves.
        case pairsTwoSenders
        /// Plays the recorded streams of an old session to the first connection of each
        /// side (the receiver's half to the sender, the sender's half to the receiver), then behaves.
        case replays(senderToReceiver: [UInt8], receiverToSender: [UInt8])
    }

    private struct Pending {
        let socket: POSIXSocket
        let token: [UInt8]
        let side: [UInt8]
    }

    let port: UInt16
    private let listening: POSIXSocket
    private let behaviour: Behaviour
    /// The sender's side per relay token, learnt from the token's first handshake (the sender
    /// waits at the relay before any receiver comes; its side then comes back on every
    /// connection it makes with that token).
    private var senderSides: [[UInt8]: [UInt8]] = [:]
    /// The first token seen (the first QR's).
    private var firstToken: [UInt8]?
    let lock = NSLock()
    private var pending: [Pending] = []
    private var held: [POSIXSocket] = []
    private var stopped = false
    private var received: [UInt8] = []
    private var handshakes: [(token: [UInt8], side: [UInt8])] = []
    var streams: [Direction: [UInt8]] = [:]
    var units: [Unit] = []
    private var notes: [String] = []
    private var usedFirstMove = Set<String>()
    private var learnedHint: [UInt8]?
    /// The sender's first connection, told `ok` and kept for its second (``Behaviour/pairsTwoSenders``).
    private var firstSender: Pending?
    private var pairs = 0

    /// Starts listening on 127.0.0.1.
    init(_ behaviour: Behaviour) throws {
        listening = try POSIXSocket.makeTCP()
        try listening.listen(address: .loopback, port: 0, backlog: 64)
        port = try listening.localPort()
        self.behaviour = behaviour
        Thread { [self] in acceptLoop() }.start()
    }

    /// The side the relay took for the sender's.
    var senderSide: [UInt8]? { lock.withLock { firstToken.flatMap { senderSides[$0] } } }

    deinit { stop() }

    /// Stops listening and closes every connection.
    func stop() {
        let sockets = lock.withLock { () -> [POSIXSocket] in
            guard !stopped else { return [] }
            stopped = true
            defer {
                pending.removeAll()
                held.removeAll()
            }
            return pending.map(\.socket) + held
        }
        listening.shutdownBoth()
        sockets.forEach { $0.shutdownBoth() }
    }

    // MARK: What a test reads

    /// Every byte the relay received, from both devices, handshakes included.
    var receivedBytes: [UInt8] { lock.withLock { received } }
    /// The handshakes read so far.
    var handshakeCount: Int { lock.withLock { handshakes.count } }
    /// Handshakes that presented `side`.
    func handshakes(side: [UInt8]) -> Int { lock.withLock { handshakes.count { $0.side == side } } }
    /// The copied units, in the order they were read.
    var copiedUnits: [Unit] { lock.withLock { units } }
    /// Everything one direction of the first honest pair carried (to replay it later).
    func stream(_ direction: Direction) -> [UInt8] { lock.withLock { streams[direction] ?? [] } }
    /// What the relay did, for failure messages and waits.
    var log: [String] { lock.withLock { notes } }
    /// Whether the log has a line starting with `prefix`.
    func did(_ prefix: String) -> Bool { lock.withLock { notes.contains { $0.hasPrefix(prefix) } } }

    func note(_ line: String) { lock.withLock { notes.append(line) } }

    func record(_ bytes: [UInt8]) { lock.withLock { received += bytes } }

    // MARK: Accepting and the handshake

    private func acceptLoop() {
        while !lock.withLock({ stopped }) {
            guard (try? Blocking.wait(listening, for: Int16(POLLIN), timeout: .milliseconds(200))) == true else { continue }
            guard case .accepted(let socket)? = try? listening.accept() else { continue }
            Thread { [self] in handshake(socket) }.start()
        }
    }

    private func handshake(_ socket: POSIXSocket) {
        var line: [UInt8] = []
        while !line.contains(UInt8(ascii: "\n")), line.count < 200 {
            guard let chunk = try? Blocking.read(socket, maximum: 1, timeout: .seconds(30)), !chunk.isEmpty else {
                socket.shutdownBoth()
                return
            }
            line += chunk
        }
        record(line)
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.dropLast().split(separator: " ")
        guard parts.count == 6, parts[0] == "please", parts[1] == "relay", parts[3] == "for", parts[4] == "side",
              let token = Hex.decode(String(parts[2])), let side = Hex.decode(String(parts[5])) else {
            _ = try? Blocking.write(socket, Array("bad handshake\n".utf8))
            socket.shutdownBoth()
            return
        }
        let isSender = lock.withLock { () -> Bool in
            handshakes.append((token, side))
            if firstToken == nil { firstToken = token }
            if senderSides[token] == nil { senderSides[token] = side }
            return senderSides[token] == side
        }
        arrived(Pending(socket: socket, token: token, side: side), isSender: isSender)
    }

    /// Whether this is the first time the one-off move `name` is made.
    private func firstTime(_ name: String) -> Bool {
        lock.withLock { usedFirstMove.insert(name).inserted }
    }

    private func arrived(_ connection: Pending, isSender: Bool) {
        switch behaviour {
        case .neverPairs:
            hold(connection.socket)
            note("held \(isSender ? "sender" : "receiver") connection")
            swallow(connection.socket, closed: "\(isSender ? "sender" : "receiver") closed a held connection")
            return
        case .blackHole:
            hold(connection.socket)
            _ = try? Blocking.write(connection.socket, RelayHandshake.okay)
            note("ok to \(isSender ? "sender" : "receiver") connection, swallowing")
            swallow(connection.socket)
            return
        case .pairsTheSenderWithAnAttacker, .impersonatesTheSender:
            if isSender, firstTime("attacker") {
                playAttacker(on: connection.socket)
                return
            }
            if case .impersonatesTheSender = behaviour, !isSender, firstTime("impostor") {
                playImpostor(on: connection.socket)
                return
            }
        case .pairsTwoSenders:
            if isSender, firstTime("first sender") {
                hold(connection.socket)
                lock.withLock { firstSender = connection }  // before the ok: the sender's next connection follows it at once
                _ = try? Blocking.write(connection.socket, RelayHandshake.okay)
                note("ok to the first sender connection")
                return
            }
            if isSender, firstTime("second sender") {
                if let first = lock.withLock({ firstSender }) {
                    _ = try? Blocking.write(connection.socket, RelayHandshake.okay)
                    note("paired two sender connections")
                    pump(first.socket, connection.socket, tamper: nil, closeAfter: nil, recording: false)
                    return
                }
            }
        case .replays(let senderToReceiver, let receiverToSender):
            if firstTime(isSender ? "replay to sender" : "replay to receiver") {
                hold(connection.socket)
                _ = try? Blocking.write(connection.socket, RelayHandshake.okay)
                _ = try? Blocking.write(connection.socket, isSender ? receiverToSender : senderToReceiver)
                note("replayed \(isSender ? receiverToSender.count : senderToReceiver.count) old bytes to the \(isSender ? "sender" : "receiver")")
                swallow(connection.socket)
                return
            }
        case .honest:
            break
        }
        pairHonestly(connection)
    }

    private func pairHonestly(_ connection: Pending) {
        let buddy = lock.withLock { () -> Pending? in
            guard let index = pending.firstIndex(where: { $0.token == connection.token && $0.side != connection.side }) else {
                pending.append(connection)
                return nil
            }
            return pending.remove(at: index)
        }
        guard let buddy else {
            watchWhilePending(connection)
            return
        }
        for socket in [buddy.socket, connection.socket] { _ = try? Blocking.write(socket, RelayHandshake.okay) }
        let senderSide = lock.withLock { senderSides[connection.token] }
        let (sender, receiver) = buddy.side == senderSide ? (buddy.socket, connection.socket) : (connection.socket, buddy.socket)
        let first = lock.withLock { () -> Bool in
            pairs += 1
            return pairs == 1
        }
        note("paired sender and receiver")
        var tamper: Tamper?
        var closeAfter: Int?
        if case .honest(let chosen, let limit) = behaviour {
            tamper = chosen
            closeAfter = first ? limit : nil
        }
        pump(sender, receiver, tamper: tamper, closeAfter: closeAfter, recording: first)
    }

    /// Notes when a connection closes while it waits to be paired (a device sends nothing
    /// before `ok`, so anything readable then is its end); peeks, so a paired stream loses nothing.
    private func watchWhilePending(_ connection: Pending) {
        Thread { [self] in
            while !lock.withLock({ stopped }) {
                guard lock.withLock({ pending.contains { $0.socket === connection.socket } }) else { return }
                guard (try? Blocking.wait(connection.socket, for: Int16(POLLIN), timeout: .milliseconds(100))) == true else { continue }
                var byte: UInt8 = 0
                let peeked = recv(connection.socket.descriptor, &byte, 1, Int32(MSG_PEEK))
                guard peeked <= 0 else { return }  // bytes: it was paired meanwhile
                let wasPending = lock.withLock { () -> Bool in
                    guard let index = pending.firstIndex(where: { $0.socket === connection.socket }) else { return false }
                    pending.remove(at: index)
                    return true
                }
                if wasPending { note("a waiting connection with token \(Hex.encode(connection.token).prefix(8)) closed") }
                return
            }
        }.start()
    }

    /// The relay tokens of the handshakes so far, in order.
    var tokens: [[UInt8]] { lock.withLock { handshakes.map(\.token) } }

    private func hold(_ socket: POSIXSocket) {
        lock.withLock { held.append(socket) }
    }

    /// Reads and records what `socket` sends until it closes; then notes `closed`, if given.
    private func swallow(_ socket: POSIXSocket, closed: String? = nil) {
        Thread { [self] in
            while let chunk = try? Blocking.read(socket, maximum: 4096, timeout: .seconds(120)), !chunk.isEmpty { record(chunk) }
            if let closed, !lock.withLock({ stopped }) { note(closed) }
            socket.shutdownBoth()
        }.start()
    }

    // MARK: The wrong parties

    /// Someone who never saw the QR: the challenge's session hint is all it learns; its
    /// response has a random tag, and a forged hello follows.
    private func playAttacker(on socket: POSIXSocket) {
        hold(socket)
        _ = try? Blocking.write(socket, RelayHandshake.okay)
        note("paired the sender with the attacker")
        Thread { [self] in
            guard let challenge = try? Blocking.read(socket, exactly: Admission.challengeByteCount, timeout: .seconds(30)) else { return }
            record(challenge)
            lock.withLock { learnedHint = Array(challenge[4..<12]) }
            var tag = [UInt8](repeating: 0, count: TransportKeys.admissionTagByteCount)
            tag.withUnsafeMutableBytes { SystemRandomSource().fill($0) }
            var forged = [SessionPayload.currentVersion, MessageType.hello.rawValue] + [UInt8](repeating: 0xA5, count: 22) + [UInt8](repeating: 0x5A, count: 64)
            forged[22] = 0
            forged[23] = 64
            _ = try? Blocking.write(socket, Admission.responseMagic + tag + (try! FrameStream.encode(forged)))
            let closed = (try? Blocking.read(socket, maximum: 4096, timeout: .seconds(30)))?.isEmpty ?? true
            note(closed ? "the sender closed the attacker's connection" : "the sender sent the attacker bytes")
            socket.shutdownBoth()
        }.start()
    }

    /// An impostor of the sender: the real session hint (learned from the attacker's
    /// challenge) with its own nonce. It takes the response and the hello, then closes.
    private func playImpostor(on socket: POSIXSocket) {
        hold(socket)
        Thread { [self] in
            let deadline = ContinuousClock.now + .seconds(30)
            var hint: [UInt8]?
            while hint == nil, ContinuousClock.now < deadline {
                hint = lock.withLock { learnedHint }
                if hint == nil { usleep(10_000) }
            }
            guard let hint else { return }
            var nonce = [UInt8](repeating: 0, count: TransportKeys.challengeNonceByteCount)
            nonce.withUnsafeMutableBytes { SystemRandomSource().fill($0) }
            _ = try? Blocking.write(socket, RelayHandshake.okay + Admission.challengeMagic + hint + nonce)
            note("challenged the receiver as the sender")
            guard let response = try? Blocking.read(socket, exactly: Admission.responseByteCount, timeout: .seconds(30)),
                  let prefix = try? Blocking.read(socket, exactly: 2, timeout: .seconds(30)),
                  let hello = try? Blocking.read(socket, exactly: Int(prefix[0]) << 8 | Int(prefix[1]), timeout: .seconds(30)) else { return }
            record(response + prefix + hello)
            note("took the receiver's response and hello, then closed")
            socket.shutdownBoth()
        }.start()
    }
}
