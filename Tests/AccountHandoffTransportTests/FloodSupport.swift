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

/// This process's descriptors as the kernel sees them (Linux `/proc`).
enum DescriptorCensus {
    /// Entries in `/proc/self/fd`.
    static func openDescriptorCount() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count
    }

    /// The inodes of the sockets among the descriptors of `process` (`"self"` or a process
    /// ID), or `nil` when its `/proc/<process>/fd` cannot be read.
    static func socketInodes(ofProcess process: String) -> Set<String>? {
        let directory = "/proc/\(process)/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        return Set(entries.compactMap { socketInode(atLink: directory + "/" + $0) })
    }

    /// The inode of the socket behind this process's `descriptor`, or `nil` if it is none.
    static func socketInode(ofDescriptor descriptor: Int32) -> String? {
        socketInode(atLink: "/proc/self/fd/\(descriptor)")
    }

    private static func socketInode(atLink link: String) -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link),
              target.hasPrefix("socket:[") else { return nil }
        return String(target.dropFirst("socket:[".count).dropLast())
    }

    /// This process's descriptors that are TCP sockets with `port` as their local port (the
    /// listener's side, its listening socket included) or their remote port (the test's
    /// clients).
    static func tcpSockets(port: UInt16) -> (listenerSide: Int, clientSide: Int)? {
        guard let inodes = socketInodes(ofProcess: "self") else { return nil }
        // /proc files report size 0: read to the end rather than trusting the size.
        guard let data = FileHandle(forReadingAtPath: "/proc/net/tcp")?.readDataToEndOfFile(),
              let table = String(data: data, encoding: .utf8) else { return nil }
        var listenerSide = 0
        var clientSide = 0
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, inodes.contains(String(fields[9])) else { continue }
            func portOf(_ field: Substring) -> UInt16? { field.split(separator: ":").last.flatMap { UInt16($0, radix: 16) } }
            if portOf(fields[1]) == port { listenerSide += 1 }
            if portOf(fields[2]) == port { clientSide += 1 }
        }
        return (listenerSide, clientSide)
    }
}
