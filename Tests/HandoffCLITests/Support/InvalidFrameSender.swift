import Foundation

/// A peer that passes admission (it saw the QR) and then sends invalid frames as fast as the kernel
/// takes them: forged hellos for the transfer (right header, random key and MAC) and, every
/// tenth frame, a frame of an unknown version. When the sender closes the connection it
/// reconnects and goes on, until `total` whole frames were written.
final class InvalidFrameSender: @unchecked Sendable {
    // Safety of @unchecked Sendable: the counters are only touched under `lock`.
    struct Report: Sendable, CustomStringConvertible {
        var framesWritten = 0
        var connections = 0
        var closedBySender = 0
        var description: String {
            "\(framesWritten) invalid frames written on \(connections) connections, \(closedBySender) of them closed by the sender"
        }
    }

    let total: Int
    private let target: ScannedTarget
    private let lock = NSLock()
    private var report = Report()
    private var running = true
    private var finished = false
    /// Every frame has this size on the wire, so whole frames can be counted from bytes.
    static let wireFrameByteCount = 2 + 88

    init(target: ScannedTarget, total: Int = 20_000) {
        self.target = target
        self.total = total
    }

    func start() { Thread { [self] in run() }.start() }

    /// What was achieved so far.
    var progress: Report { lock.withLock { report } }
    var isFinished: Bool { lock.withLock { finished } }

    /// Stops (if not done) and returns the counts.
    func stop() -> Report {
        lock.withLock { running = false }
        while !isFinished { usleep(10_000) }
        return progress
    }

    private func frame(_ index: Int) -> [UInt8] {
        if index % 10 == 9 { return ScannedTarget.onTheWire([9] + [UInt8](repeating: 0x5A, count: 87)) }
        return ScannedTarget.onTheWire(target.forgedHello())
    }

    private func run() {
        defer { lock.withLock { finished = true } }
        var connection: RawConnection?
        var pending: [UInt8] = []
        var bytesOnThisConnection = 0
        while lock.withLock({ running && report.framesWritten < total }) {
            if connection == nil {
                // Deadlines a loaded machine cannot meet by accident: a connection the sender is
                // merely slow to admit is not given up (and replaced by yet another).
                guard let fresh = RawConnection.connect(port: target.port, timeout: .seconds(30)),
                      target.admit(fresh, timeout: .seconds(30)) else {
                    usleep(20_000)
                    continue
                }
                connection = fresh
                bytesOnThisConnection = 0
                lock.withLock { report.connections += 1 }
            }
            if pending.isEmpty {
                let left = lock.withLock { total - report.framesWritten }
                let start = lock.withLock { report.framesWritten }
                pending = (0..<min(500, left)).flatMap { frame(start + $0) }
            }
            guard let written = connection?.writeSome(pending) else {
                // Closed by the sender: frames not wholly written are lost; start the batch again.
                lock.withLock { report.closedBySender += 1 }
                connection = nil
                pending = []
                continue
            }
            if written == 0 {
                var entry = pollfd(fd: connection!.descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, 20)
                continue
            }
            let before = bytesOnThisConnection / Self.wireFrameByteCount
            bytesOnThisConnection += written
            let whole = bytesOnThisConnection / Self.wireFrameByteCount - before
            pending.removeFirst(written)
            lock.withLock { report.framesWritten += whole }
        }
        // Everything may sit in the socket buffers by now: give the sender time to read
        // some of it and close the connection, as it must after a bounded number.
        if let connection, connection.waitForPeerClose(timeout: .seconds(5)) {
            lock.withLock { report.closedBySender += 1 }
        }
        connection?.close()
    }
}
