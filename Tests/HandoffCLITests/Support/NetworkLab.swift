import AccountHandoffTestSupport
import AccountHandoffTransitRelay
import Foundation
import SpawnedChild
import Testing

/// Three hosts in network namespaces (iproute2's `ip netns`, veth pairs), for a transfer that
/// must cross a relay: the sender (10.77.1.2) and the receiver (10.77.2.2) each reach only the
/// relay's host, which answers at 10.77.0.1 on both links and forwards nothing, as under Wi-Fi
/// client isolation. Either the receiver has no route to the sender's subnet, so a direct
/// connection fails at once (ENETUNREACH), or its packets to the sender go to the relay's host,
/// which drops them without a word (no forwarding), so a direct connection hears nothing.
/// Created by the test and removed after it; nothing outside the namespaces changes.
///
/// ```
///  sender ns            relay ns                          receiver ns
///  10.77.1.2 ──veth── 10.77.1.1   lo 10.77.0.1   10.77.2.1 ──veth── 10.77.2.2
///  route 10.77.0.1 via 10.77.1.1   ip_forward 0             route 10.77.0.1 via 10.77.2.1
/// ```
struct NetworkLab {
    static let ip = "/usr/sbin/ip"
    static let senderAddress = "10.77.1.2"
    static let receiverAddress = "10.77.2.2"
    static let relayAddress = "10.77.0.1"

    let sender: String
    let receiver: String
    let relay: String

    /// How the receiver fails to reach the sender.
    enum Isolation: String, Sendable, CaseIterable {
        /// No route: the connect fails at once.
        case noRoute
        /// A route through the relay's host, which drops the packets: the connect hears nothing.
        case silentDrop
    }

    private static let counter = Counter()

    /// Why the lab cannot be built on this machine, or `nil` when it can: said plainly, and
    /// the test is skipped with that sentence.
    static let unavailableReason: String? = {
        guard geteuid() == 0 else { return "The network-namespace test needs root to create namespaces (.ci/run runs as root); skipped." }
        guard FileManager.default.isExecutableFile(atPath: ip) else { return "The network-namespace test needs iproute2's ip (apt-get install iproute2); skipped." }
        if let missing = TransitRelay.unavailableReason { return missing + " The network-namespace test skipped." }
        let probe = "hprobe\(getpid() % 100000)"
        let made = try? ChildProcess.run(URL(fileURLWithPath: ip), ["netns", "add", probe])
        _ = try? ChildProcess.run(URL(fileURLWithPath: ip), ["netns", "del", probe])
        guard let made, made.status == 0 else {
            let why = made.map { String(decoding: $0.stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "could not run ip"
            return "This process may not create network namespaces (ip netns add: \(why)); the network-namespace test skipped."
        }
        return nil
    }()

    /// ``create(_:)`` on a Dispatch thread: its `ip` calls must not hold a Swift concurrency thread.
    static func created(_ isolation: Isolation) async throws -> NetworkLab {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try create(isolation) }) }
        }
    }

    /// Builds the three namespaces and their links.
    static func create(_ isolation: Isolation) throws -> NetworkLab {
        let id = "\(getpid() % 10000)\(counter.next())"
        let lab = NetworkLab(sender: "hoS\(id)", receiver: "hoR\(id)", relay: "hoY\(id)")
        do {
            for namespace in [lab.sender, lab.receiver, lab.relay] {
                try run(["netns", "add", namespace])
                try run(["-n", namespace, "link", "set", "lo", "up"])
            }
            try run(["link", "add", "hs\(id)a", "netns", lab.sender, "type", "veth", "peer", "name", "hs\(id)b", "netns", lab.relay])
            try run(["link", "add", "hr\(id)a", "netns", lab.receiver, "type", "veth", "peer", "name", "hr\(id)b", "netns", lab.relay])
            try run(["-n", lab.sender, "addr", "add", "\(senderAddress)/24", "dev", "hs\(id)a"])
            try run(["-n", lab.relay, "addr", "add", "10.77.1.1/24", "dev", "hs\(id)b"])
            try run(["-n", lab.receiver, "addr", "add", "\(receiverAddress)/24", "dev", "hr\(id)a"])
            try run(["-n", lab.relay, "addr", "add", "10.77.2.1/24", "dev", "hr\(id)b"])
            try run(["-n", lab.relay, "addr", "add", "\(relayAddress)/32", "dev", "lo"])
            for (namespace, device) in [(lab.sender, "hs\(id)a"), (lab.relay, "hs\(id)b"), (lab.receiver, "hr\(id)a"), (lab.relay, "hr\(id)b")] {
                try run(["-n", namespace, "link", "set", device, "up"])
            }
            try run(["-n", lab.sender, "route", "add", "\(relayAddress)/32", "via", "10.77.1.1"])
            try run(["-n", lab.receiver, "route", "add", "\(relayAddress)/32", "via", "10.77.2.1"])
            if isolation == .silentDrop { try run(["-n", lab.receiver, "route", "add", "10.77.1.0/24", "via", "10.77.2.1"]) }
            // A new namespace starts without forwarding; make sure (a read-only /proc/sys is fine then).
            try run(["netns", "exec", lab.relay, "/bin/sh", "-c",
                     "echo 0 > /proc/sys/net/ipv4/ip_forward 2>/dev/null; test \"$(cat /proc/sys/net/ipv4/ip_forward)\" = 0"])
        } catch {
            lab.remove()
            throw error
        }
        return lab
    }

    /// Deletes the namespaces (their veth pairs go with them).
    func remove() {
        for namespace in [sender, receiver, relay] { _ = try? Self.run(["netns", "del", namespace]) }
    }

    private static func run(_ arguments: [String]) throws {
        let result = try ChildProcess.run(URL(fileURLWithPath: ip), arguments)
        guard result.status == 0 else {
            throw LabFailure(message: "ip \(arguments.joined(separator: " ")) failed: \(String(decoding: result.stderr, as: UTF8.self))")
        }
    }

    struct LabFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// A `handoff` process in a network namespace (`ip netns exec`), its output collected as it
/// comes, with the time each line arrived.
final class NamespacedHandoff: @unchecked Sendable {
    // Safety of @unchecked Sendable: `output` and `lines` are only touched under `lock`.
    private let process: SpawnedChild
    private let input = InheritanceSafePipe()
    private let lock = NSLock()
    private var output = ""
    private var lines: [(at: ContinuousClock.Instant, text: String)] = []
    private var readerDone = false
    let started = ContinuousClock.now

    init(namespace: String, _ arguments: [String]) throws {
        let pipe = InheritanceSafePipe()
        // `ip netns exec` execs handoff, so the child's death signal reaches handoff itself.
        process = try SpawnedChild.spawn(NetworkLab.ip, ["netns", "exec", namespace, try HandoffProcess.binary().path] + arguments,
                                         input: .descriptor(input.fileHandleForReading.fileDescriptor),
                                         output: .descriptor(pipe.fileHandleForWriting.fileDescriptor)).get()
        try input.fileHandleForReading.close()
        try pipe.fileHandleForWriting.close()
        let reading = pipe.fileHandleForReading
        Thread { [self] in
            var pending = ""
            while true {
                let chunk = reading.availableData
                if chunk.isEmpty { break }
                let text = String(decoding: chunk, as: UTF8.self)
                let now = ContinuousClock.now
                lock.withLock {
                    output += text
                    pending += text
                    while let newline = pending.firstIndex(of: "\n") {
                        lines.append((now, String(pending[..<newline])))
                        pending.removeSubrange(...newline)
                    }
                }
            }
            lock.withLock { readerDone = true }
        }.start()
    }

    func write(_ text: String) { try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8)) }

    var text: String { lock.withLock { output } }

    /// Seconds from the start to the first line containing `text`, if there is one.
    func secondsUntilLine(containing text: String) -> Double? {
        lock.withLock {
            lines.first { $0.text.contains(text) }.map { instant in
                let elapsed = instant.at - started
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
        }
    }

    /// Waits until the output contains `text`; the output then, or `nil` at the end or timeout.
    func waitFor(_ text: String, timeout: Duration = .seconds(30)) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let current = self.text
            if current.contains(text) { return current }
            if !process.isRunning, lock.withLock({ readerDone }) { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Waits for the end (killing it after `timeout`); the exit status.
    func finish(timeout: Duration = .seconds(30)) async -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning {
            Issue.record("a namespaced handoff did not finish within \(timeout); killed it")
            process.send(SIGKILL)
        }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(5)) }
        while !lock.withLock({ readerDone }) { try? await Task.sleep(for: .milliseconds(5)) }
        return process.terminationSignal ?? process.terminationStatus
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    // Safety of @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.withLock { value += 1; return value } }
}
