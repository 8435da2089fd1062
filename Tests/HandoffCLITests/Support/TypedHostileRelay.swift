#if canImport(Glibc)
import Glibc
#endif
import AccountHandoff
import Foundation

/// A transit relay written for the tests (not a product) that speaks the handshake of Spec
/// 11.7 on 127.0.0.1 and pairs the typed way's connections (Spec 12.8) with an attacker once:
/// the honest devices name its ``publicPort``; the attacker, built from the library, names its
/// ``accomplicePort``. It tells a typed sender's connection from a typed receiver's the way
/// any relay can: the token is one of the 1000 public nameplate tokens, and the sending side
/// is that nameplate's fixed `senderSide`. After its one attack it pairs honestly (same
/// token, different sides, Debian's rule). It records the nameplates it learnt and what it did.
///
/// Blocking sockets on threads of its own, never on the Swift concurrency pool.
final class TypedHostileRelay: @unchecked Sendable {
    // Safety of @unchecked Sendable: every mutable field is only touched under `lock`.

    /// Whom the one attack pairs with the attacker.
    enum Attack: Sendable {
        /// The honest receiver's first typed connection goes to the attacker's waiting sender.
        case pairsTheReceiverWithTheAttacker
        /// The honest sender's waiting typed connection goes to the attacker's receiver.
        case pairsTheSenderWithTheAttacker
    }

    private enum Role: Equatable { case typedSender, typedReceiver, other }

    private struct Waiting {
        let descriptor: Int32
        let token: [UInt8]
        let side: [UInt8]
        let role: Role
        let fromAccomplice: Bool
    }

    let publicPort: UInt16
    let accomplicePort: UInt16
    private let listeners: [Int32]
    private let attack: Attack
    /// Every nameplate's relay token and sender side (public, Spec 12.8).
    private let nameplates: [[UInt8]: (nameplate: TypedCode.Nameplate, senderSide: [UInt8])]
    private let lock = NSLock()
    private var waiting: [Waiting] = []
    private var open: [Int32] = []
    private var attacked = false
    private var stopped = false
    private var notes: [String] = []
    private var learnt: [TypedCode.Nameplate] = []
    private var publicHandshakes = 0

    init(_ attack: Attack) throws {
        var table: [[UInt8]: (TypedCode.Nameplate, [UInt8])] = [:]
        for value in UInt16(0)..<1000 {
            let nameplate = TypedCode.Nameplate(value: value)!
            let keys = try TypedRelayKeys(nameplate: nameplate)
            table[keys.relayToken] = (nameplate, keys.senderSide)
        }
        nameplates = table
        self.attack = attack
        let publicListener = try Self.listen()
        let accompliceListener = try Self.listen()
        listeners = [publicListener.descriptor, accompliceListener.descriptor]
        publicPort = publicListener.port
        accomplicePort = accompliceListener.port
        for (descriptor, fromAccomplice) in [(publicListener.descriptor, false), (accompliceListener.descriptor, true)] {
            Thread { [self] in acceptLoop(descriptor, fromAccomplice: fromAccomplice) }.start()
        }
    }

    deinit { stop() }

    /// Stops listening and ends every connection.
    func stop() {
        let descriptors = lock.withLock { () -> [Int32] in
            guard !stopped else { return [] }
            stopped = true
            return listeners + open
        }
        descriptors.forEach { shutdown($0, Int32(SHUT_RDWR)) }
        // Waiting connections belong to no thread: close them now.
        let left = lock.withLock { () -> [Waiting] in
            defer { waiting.removeAll() }
            return waiting
        }
        left.forEach { forget($0.descriptor) }
    }

    /// What the relay did, in order.
    var log: [String] { lock.withLock { notes } }
    /// Whether the log has a line starting with `prefix`.
    func did(_ prefix: String) -> Bool { lock.withLock { notes.contains { $0.hasPrefix(prefix) } } }
    /// The nameplates the relay learnt from sending devices' tokens, in order.
    var learntNameplates: [TypedCode.Nameplate] { lock.withLock { learnt } }
    /// Handshakes read on the public port.
    var publicHandshakeCount: Int { lock.withLock { publicHandshakes } }

    private func note(_ line: String) { lock.withLock { notes.append(line) } }

    // MARK: Accepting and the handshake

    private static func listen() throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && Glibc.listen(descriptor, 64) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    private func acceptLoop(_ listening: Int32, fromAccomplice: Bool) {
        while true {
            let descriptor = accept(listening, nil, nil)
            guard descriptor >= 0 else {
                if errno == EINTR { continue }
                close(listening)
                return
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)  // the handoff children must not inherit it
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let keep = lock.withLock { () -> Bool in
                if !stopped { open.append(descriptor) }
                return !stopped
            }
            guard keep else {
                close(descriptor)
                return
            }
            Thread { [self] in handshake(descriptor, fromAccomplice: fromAccomplice) }.start()
        }
    }

    private func handshake(_ descriptor: Int32, fromAccomplice: Bool) {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.last != UInt8(ascii: "\n"), line.count < 200, recv(descriptor, &byte, 1, 0) == 1 { line.append(byte) }
        let parts = String(decoding: line, as: UTF8.self).dropLast().split(separator: " ")
        guard line.last == UInt8(ascii: "\n"), parts.count == 6, parts[0] == "please", parts[1] == "relay", parts[3] == "for", parts[4] == "side",
              let token = Hex.decode(String(parts[2])), let side = Hex.decode(String(parts[5])) else {
            forget(descriptor)
            return
        }
        let known = nameplates[token]
        let role: Role = known == nil ? .other : (known!.senderSide == side ? .typedSender : .typedReceiver)
        let arrived = Waiting(descriptor: descriptor, token: token, side: side, role: role, fromAccomplice: fromAccomplice)
        let partner = lock.withLock { () -> (Waiting, attack: Bool)? in
            if !fromAccomplice { publicHandshakes += 1 }
            if let known, role == .typedSender, !fromAccomplice { learnt.append(known.nameplate) }
            if let index = waiting.firstIndex(where: { isAttack(arrived, $0) }) {
                attacked = true
                return (waiting.remove(at: index), true)
            }
            if !arrived.fromAccomplice, let index = waiting.firstIndex(where: { isHonestPair(arrived, $0) }) {
                return (waiting.remove(at: index), false)
            }
            waiting.append(arrived)
            return nil
        }
        guard let (other, isAttack) = partner else { return }
        note(isAttack ? (attack == .pairsTheReceiverWithTheAttacker ? "paired the receiver with the attacker" : "paired the sender with the attacker")
                      : "paired a sender and a receiver honestly")
        pair(arrived.descriptor, other.descriptor)
    }

    /// Whether `one` and `other` are the pair of the one attack (under `lock`).
    private func isAttack(_ one: Waiting, _ other: Waiting) -> Bool {
        guard !attacked, one.fromAccomplice != other.fromAccomplice else { return false }
        let (honest, attacker) = one.fromAccomplice ? (other, one) : (one, other)
        switch attack {
        case .pairsTheReceiverWithTheAttacker: return honest.role == .typedReceiver && attacker.role == .typedSender
        case .pairsTheSenderWithTheAttacker: return honest.role == .typedSender && attacker.role == .typedReceiver
        }
    }

    /// Debian's rule, on the public port only: the same token, different sides. Before the
    /// attack, a typed receiver is kept for the attacker.
    private func isHonestPair(_ one: Waiting, _ other: Waiting) -> Bool {
        guard !other.fromAccomplice, one.token == other.token, one.side != other.side else { return false }
        if !attacked, attack == .pairsTheReceiverWithTheAttacker, one.role == .typedReceiver || other.role == .typedReceiver { return false }
        return true
    }

    private func pair(_ first: Int32, _ second: Int32) {
        let okay = Array("ok\n".utf8)
        for descriptor in [first, second] { _ = okay.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        let copies = Copies()
        for (source, target) in [(first, second), (second, first)] {
            Thread { [self] in
                copy(from: source, to: target)
                // The second copy to end closes both descriptors: no thread reads them any more.
                if copies.endOne() { [first, second].forEach { forget($0) } }
            }.start()
        }
    }

    /// Counts the two copies of a pair that are still running.
    private final class Copies: @unchecked Sendable {
        // Safety of @unchecked Sendable: `running` is only touched under `lock`.
        private let lock = NSLock()
        private var running = 2
        /// Whether this was the last copy.
        func endOne() -> Bool { lock.withLock { running -= 1; return running == 0 } }
    }

    /// Closes a descriptor no thread uses any more.
    private func forget(_ descriptor: Int32) {
        lock.withLock { open.removeAll { $0 == descriptor } }
        close(descriptor)
    }

    private func copy(from source: Int32, to target: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            var offset = 0
            while offset < count {
                let sent = buffer.withUnsafeBytes { send(target, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL)) }
                if sent <= 0 { break }
                offset += sent
            }
            if offset < count { break }
        }
        shutdown(target, Int32(SHUT_RDWR))
        shutdown(source, Int32(SHUT_RDWR))
    }
}
