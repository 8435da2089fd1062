@testable import AccountHandoffTransport
import Foundation

/// A stand-in for the protocol session on the sender's side, run on its own thread: it binds
/// the first connection whose first frame is `hello` and answers it with `welcome`, answers
/// each `request` on the bound connection with `response`, and reports every other frame to
/// the listener as ignored. The real session is the core's; this one is just strict enough to
/// tell the real receiver from a flood.
final class StandInSession: @unchecked Sendable {
    static let hello: [UInt8] = [0x02] + Array(repeating: 0x5A, count: 63)
    static let welcome: [UInt8] = Array("welcome".utf8)
    static let request: [UInt8] = Array("request".utf8)
    static let response: [UInt8] = Array("response".utf8)

    /// What the session saw, readable from other threads.
    struct Record {
        var bound: FrameListener.ConnectionID?
        var bindCount = 0
        var exchanges = 0
        var connected = 0
        var ignoredFrames = 0
        var closedForIgnoredFrames: [FrameListener.ConnectionID] = []
        var disconnections: [FrameListener.ConnectionID: TransportError] = [:]
        var statistics = ListenerStatistics()
        var openConnections = 0
        var failure: TransportError?
    }

    private let listener: FrameListener
    private let lock = NSLock()
    private var shared = Record()
    private var stopRequested = false
    private let finished = DispatchSemaphore(value: 0)

    /// Takes over `listener` until ``stop()`` returns it.
    init(listener: FrameListener) {
        self.listener = listener
    }

    var record: Record { lock.withLock { shared } }

    func start() {
        Thread { [self] in
            run()
            finished.signal()
        }.start()
    }

    /// Stops the loop and hands the listener back.
    @discardableResult
    func stop() -> FrameListener {
        lock.withLock { stopRequested = true }
        finished.wait()
        return listener
    }

    private func run() {
        var seenFirstFrame: Set<FrameListener.ConnectionID> = []
        var local = Record()
        while !lock.withLock({ stopRequested }) {
            do {
                if let event = try listener.next(timeout: .milliseconds(20)) {
                    handle(event, &local, &seenFirstFrame)
                }
            } catch {
                local.failure = error
            }
            local.statistics = listener.statistics
            local.openConnections = listener.openConnectionCount
            let snapshot = local
            lock.withLock { shared = snapshot }
        }
    }

    private func handle(_ event: FrameListener.Event, _ record: inout Record, _ seenFirstFrame: inout Set<FrameListener.ConnectionID>) {
        switch event {
        case .connected:
            record.connected += 1
        case .frame(let id, let bytes):
            let isFirst = seenFirstFrame.insert(id).inserted
            do {
                if record.bound == nil, isFirst, bytes == Self.hello {
                    try listener.bind(id)
                    record.bound = id
                    record.bindCount += 1
                    try listener.send(Self.welcome, to: id)
                } else if id == record.bound, bytes == Self.request {
                    try listener.send(Self.response, to: id)
                    record.exchanges += 1
                } else {
                    record.ignoredFrames += 1
                    if listener.noteIgnoredFrame(id) { record.closedForIgnoredFrames.append(id) }
                }
            } catch {
                record.failure = error
            }
        case .disconnected(let id, let error):
            record.disconnections[id] = error
        }
    }
}

/// Holds sockets that a helper thread writes to.
final class SocketBox: @unchecked Sendable {
    let sockets: [POSIXSocket]
    init(_ sockets: [POSIXSocket]) { self.sockets = sockets }
}

/// Descriptors and TCP sockets as the kernel sees them (Linux `/proc`).
enum DescriptorCensus {
    /// Entries in `/proc/self/fd`.
    static func openDescriptorCount() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count
    }

    /// TCP sockets that this process holds with `rendezvous` as their local end (the
    /// listener's side, its listening socket included) or their remote end (the test's
    /// clients): distinct inodes of one read of `/proc/net/tcp` that are among this process's
    /// descriptors, read after it.
    ///
    /// The table alone over-counts twice over. It is not a snapshot: the kernel prints it
    /// bucket by bucket and resumes each read at a position, so a socket can be printed twice
    /// while connections come and go (205 listener-side rows against 194 connections ever
    /// accepted, under load); hence distinct inodes. And a program that another suite is
    /// starting holds copies of this process's descriptors between its fork and its exec, so
    /// a socket closed here stays listed until that program execs (47 closed client sockets in
    /// one fresh-clone run); hence only inodes still held here. Reading the descriptors after
    /// the table cannot over-count either: a socket closed in between is missed, and a
    /// descriptor number reused meanwhile names a socket the table did not list.
    static func tcpSockets(of rendezvous: TCPRendezvous) -> (listenerSide: Int, clientSide: Int)? {
        guard let table = readWhole("/proc/net/tcp"), let held = heldSocketInodes() else { return nil }
        // The table prints an address as the hexadecimal value of its in-memory `s_addr`.
        let address = rendezvous.address.bytes.withUnsafeBytes { String(format: "%08X", $0.loadUnaligned(as: UInt32.self)) }
        let end = address + ":" + String(format: "%04X", rendezvous.port)
        var listenerSide = Set<Substring>()
        var clientSide = Set<Substring>()
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, held.contains(String(fields[9])) else { continue }
            if fields[1] == end { listenerSide.insert(fields[9]) }
            if fields[2] == end { clientSide.insert(fields[9]) }
        }
        return (listenerSide.count, clientSide.count)
    }

    /// The inodes of the sockets among this process's descriptors (`socket:[inode]` links).
    private static func heldSocketInodes() -> Set<String>? {
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        var inodes = Set<String>()
        for descriptor in descriptors {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor),
                  target.hasPrefix("socket:["), target.hasSuffix("]") else { continue }
            inodes.insert(String(target.dropFirst("socket:[".count).dropLast()))
        }
        return inodes
    }

    /// A `/proc` file in as few reads as possible (they report size 0, so read to the end):
    /// each read of a table is one pass over the kernel's state.
    private static func readWhole(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
        }
    }
}
