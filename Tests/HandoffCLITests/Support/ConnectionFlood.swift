import Foundation

/// A local attacker that keeps many connections open to a sender's port, reconnecting each
/// one the sender closes, so that a fixed pool of slots would stay full (Spec 11.6):
///
/// - `silent`: connects and sends nothing (not even the admission response);
/// - `slow`: answers the admission challenge (it saw the QR) and then sends a forged hello one
///   byte every 250 ms (slowloris);
/// - `admittedSilent`: answers the admission challenge and then sends nothing.
///
/// It runs on its own thread and measures how long the sender let each kind hold a
/// connection, and the sender's descriptors and memory meanwhile.
final class ConnectionFlood: @unchecked Sendable {
    // Safety of @unchecked Sendable: `slots`, `stats` and the samples are only touched by the
    // flood's thread while it runs, and read under `lock` after `stop()`.
    enum Kind: String, CaseIterable, Sendable {
        case silent, slow, admittedSilent
    }

    /// What one kind of connection achieved.
    struct KindReport: Sendable, CustomStringConvertible {
        var opened = 0
        var failedToConnect = 0
        var closedBySender = 0
        var longestHeldUntilClosed: Duration = .zero
        var stillOpenAtEnd = 0
        var oldestStillOpen: Duration = .zero

        var description: String {
            "opened \(opened), could not connect \(failedToConnect), closed by the sender \(closedBySender) "
                + "(longest held \(Self.seconds(longestHeldUntilClosed))), still open at the end \(stillOpenAtEnd) "
                + "(oldest \(Self.seconds(oldestStillOpen)))"
        }

        static func seconds(_ duration: Duration) -> String {
            String(format: "%.1f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        }
    }

    /// The whole measurement.
    struct Report: Sendable, CustomStringConvertible {
        var kinds: [Kind: KindReport] = [:]
        var largestDescriptorCount = 0
        var largestResidentKilobytes = 0
        var description: String {
            Kind.allCases.map { "\($0.rawValue): \(kinds[$0] ?? KindReport())" }.joined(separator: "; ")
                + "; sender at most \(largestDescriptorCount) descriptors, \(largestResidentKilobytes) kB resident"
        }
    }

    private struct Slot {
        var connection: RawConnection?
        /// What the slow kind drips: the forged hello.
        var bytes: [UInt8] = []
        var dripped = 0
        /// The last byte dripped, or the last attempt to connect.
        var lastDrip = ContinuousClock.now - .seconds(1)
    }

    let perKind: Int
    private let target: ScannedTarget
    private let senderPID: Int32
    private let lock = NSLock()
    private var slots: [Kind: [Slot]] = [:]
    private var report = Report()
    private var running = true
    private var finished = false
    private var ownPortSet: Set<UInt16> = []
    private var filledOnce = false

    init(target: ScannedTarget, senderPID: Int32, perKind: Int = 64) {
        self.target = target
        self.senderPID = senderPID
        self.perKind = perKind
        for kind in Kind.allCases {
            slots[kind] = Array(repeating: Slot(), count: perKind)
            report.kinds[kind] = KindReport()
        }
    }

    /// Starts flooding on a thread of its own.
    func start() {
        Thread { [self] in run() }.start()
    }

    /// Whether every slot of every kind has been connected at least once.
    var isFull: Bool { lock.withLock { filledOnce } }

    /// The local ports of the flood's connections, to tell them apart in a capture.
    var ownPorts: Set<UInt16> { lock.withLock { ownPortSet } }

    /// Stops, closes every connection and returns the measurements.
    func stop() -> Report {
        lock.withLock { running = false }
        while !lock.withLock({ finished }) { usleep(10_000) }
        return lock.withLock { report }
    }

    private func run() {
        var lastSample = ContinuousClock.now - .seconds(1)
        while lock.withLock({ running }) {
            for kind in Kind.allCases {
                for index in 0..<perKind { service(kind, index) }
            }
            lock.withLock {
                if !filledOnce, Kind.allCases.allSatisfy({ (report.kinds[$0]?.opened ?? 0) >= perKind }) { filledOnce = true }
            }
            if ContinuousClock.now - lastSample >= .milliseconds(250) {
                lastSample = .now
                sampleSender()
            }
            usleep(50_000)
        }
        let now = ContinuousClock.now
        lock.withLock {
            for kind in Kind.allCases {
                for slot in slots[kind] ?? [] {
                    guard let connection = slot.connection, !connection.peerHasClosed() else { continue }
                    report.kinds[kind, default: KindReport()].stillOpenAtEnd += 1
                    let age = now - connection.openedAt
                    if age > report.kinds[kind, default: KindReport()].oldestStillOpen { report.kinds[kind]?.oldestStillOpen = age }
                    connection.close()
                }
            }
            finished = true
        }
    }

    private func service(_ kind: Kind, _ index: Int) {
        var slot = lock.withLock { slots[kind]![index] }
        if let connection = slot.connection, connection.peerHasClosed() {
            let held = ContinuousClock.now - connection.openedAt
            lock.withLock {
                report.kinds[kind, default: KindReport()].closedBySender += 1
                if held > report.kinds[kind, default: KindReport()].longestHeldUntilClosed { report.kinds[kind]?.longestHeldUntilClosed = held }
            }
            connection.close()
            slot = Slot(connection: nil, bytes: [], dripped: 0, lastDrip: .now)
        }
        if slot.connection == nil {
            // An attacker gains nothing from reconnecting faster, and this machine is shared.
            guard ContinuousClock.now - slot.lastDrip >= .milliseconds(250) else {
                lock.withLock { slots[kind]![index] = slot }
                return
            }
            guard let connection = RawConnection.connect(port: target.port, timeout: .milliseconds(50)) else {
                slot.lastDrip = .now
                lock.withLock {
                    report.kinds[kind]?.failedToConnect += 1
                    slots[kind]![index] = slot
                }
                return
            }
            lock.withLock {
                report.kinds[kind]?.opened += 1
                ownPortSet.insert(connection.localPort)
            }
            if kind != .silent { _ = target.admit(connection, timeout: .milliseconds(500)) }
            slot = Slot(connection: connection, bytes: ScannedTarget.onTheWire(target.forgedHello()), dripped: 0, lastDrip: .now)
        }
        if kind == .slow, let connection = slot.connection, slot.dripped < slot.bytes.count,
           ContinuousClock.now - slot.lastDrip >= .milliseconds(250) {
            if connection.writeSome([slot.bytes[slot.dripped]]) == 1 { slot.dripped += 1 }
            slot.lastDrip = .now
        }
        lock.withLock { slots[kind]![index] = slot }
    }

    private func sampleSender() {
        let descriptors = ProcessInspection.openDescriptorCount(of: senderPID) ?? 0
        let resident = ProcessInspection.residentKilobytes(of: senderPID) ?? 0
        lock.withLock {
            report.largestDescriptorCount = max(report.largestDescriptorCount, descriptors)
            report.largestResidentKilobytes = max(report.largestResidentKilobytes, resident)
        }
    }
}
