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

    /// Open TCP sockets with `rendezvous` as their local end (the listener's side, its
    /// listening socket included) or their remote end (the test's clients), from one read of
    /// `/proc/net/tcp`. Only the listener can hold sockets whose local end is its address and
    /// port, and a socket counts while any process still has it open (inode not 0), so the
    /// count cannot be inflated by other tests reusing descriptor numbers meanwhile, as a walk
    /// over `/proc/self/fd` followed by the table can.
    static func tcpSockets(of rendezvous: TCPRendezvous) -> (listenerSide: Int, clientSide: Int)? {
        guard let table = readWhole("/proc/net/tcp") else { return nil }
        // The table prints an address as the hexadecimal value of its in-memory `s_addr`.
        let address = rendezvous.address.bytes.withUnsafeBytes { String(format: "%08X", $0.loadUnaligned(as: UInt32.self)) }
        let end = address + ":" + String(format: "%04X", rendezvous.port)
        var listenerSide = 0
        var clientSide = 0
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[9] != "0" else { continue }
            if fields[1] == end { listenerSide += 1 }
            if fields[2] == end { clientSide += 1 }
        }
        return (listenerSide, clientSide)
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
