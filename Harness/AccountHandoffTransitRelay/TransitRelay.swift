#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SpawnedChild

/// Debian's magic-wormhole transit relay (package `magic-wormhole-transit-relay` 0.2.1) as a
/// child process, for tests, the demo and the bench: `twistd3 -n transitrelay` listening on
/// one address, with no pid file, its log and working directory in a temporary directory of
/// its own. Nothing outside that directory is read or written.
///
/// ```swift
/// let relay = try TransitRelay.start()      // 127.0.0.1, a free port
/// defer { relay.stop() }
/// // handoff send --relay 127.0.0.1:\(relay.port)
/// ```
///
/// ``kill()`` and ``restart()`` end it abruptly and start it again on the same port (a relay
/// restart in the middle of a session). It ends when this process is gone, however it ended
/// (``SpawnedChild``'s death signal).
public final class TransitRelay: @unchecked Sendable {
    // Safety of @unchecked Sendable: `process`, `launches` and `stopped` are only
    // touched under `lock`; `port` is set once, before ``start(host:port:namespace:startupTimeout:)``
    // returns the relay; the rest is immutable.

    /// The address it listens on.
    public let host: String
    /// The port it listens on.
    public private(set) var port: UInt16 = 0
    /// Its temporary directory (logs), removed by ``stop()``.
    public let directory: URL
    /// The network namespace it runs in (`ip netns exec`), if any.
    public let namespace: String?

    private let executable: String
    private let lock = NSLock()
    private var process: SpawnedChild?
    private var launches = 0
    private var stopped = false

    private init(host: String, directory: URL, namespace: String?, executable: String) {
        self.host = host
        self.directory = directory
        self.namespace = namespace
        self.executable = executable
    }

    deinit { stop() }

    /// The `twistd` of Debian's Python 3 Twisted (`twistd3` on Debian 12), when the transit
    /// relay's plugin is installed too.
    public static var twistd: String? {
        let plugin = "/usr/lib/python3/dist-packages/twisted/plugins/magic_wormhole_transit_relay.py"
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = ["/usr/bin/twistd3", "/usr/bin/twistd"] + path.split(separator: ":").flatMap { ["\($0)/twistd3", "\($0)/twistd"] }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        // Debian's plugin path; another installation (pip) keeps it elsewhere, so only Debian's is checked.
        guard found.hasPrefix("/usr/bin/") ? FileManager.default.fileExists(atPath: plugin) : true else { return nil }
        return found
    }

    /// Why the relay cannot run on this machine, or `nil` when it can.
    public static var unavailableReason: String? {
        twistd == nil ? TransitRelayUnavailable.notInstalled.description : nil
    }

    /// The command line that runs the relay (for people: the README, the demo's report).
    public var commandLine: String {
        ([namespace.map { "ip netns exec \($0)" }].compactMap { $0 } + [executable] + Self.arguments(host: host, port: port, rundir: directory.path))
            .joined(separator: " ")
    }

    /// Starts the relay on `host:port` (port 0: a free one) and waits until it listens.
    ///
    /// - Parameter namespace: a network namespace to run it in (`ip netns exec NAME`).
    /// - Throws: why it could not start; print its description.
    public static func start(host: String = "127.0.0.1", port: UInt16 = 0, namespace: String? = nil,
                             startupTimeout: Duration = .seconds(20)) throws(TransitRelayUnavailable) -> TransitRelay {
        guard let executable = twistd else { throw .notInstalled }
        var template = Array("/tmp/accounthandoff-relay-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw .setupFailed("mkdtemp failed with errno \(errno)") }
        let directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        let relay = TransitRelay(host: host, directory: directory, namespace: namespace, executable: executable)
        do throws(TransitRelayUnavailable) {
            relay.port = try relay.launch(port: port, timeout: startupTimeout)
        } catch {
            relay.stop()
            throw error
        }
        return relay
    }

    /// ``start(host:port:namespace:startupTimeout:)`` on a thread of its own: starting waits
    /// for twistd (about half a second), which must not hold a Swift concurrency thread.
    public static func started(host: String = "127.0.0.1", port: UInt16 = 0, namespace: String? = nil) async throws(TransitRelayUnavailable)
        -> TransitRelay {
        try await offThePool { () throws(TransitRelayUnavailable) in try start(host: host, port: port, namespace: namespace) }
    }

    /// ``restart(timeout:)`` on a thread of its own.
    public func restarted() async throws(TransitRelayUnavailable) {
        try await Self.offThePool { () throws(TransitRelayUnavailable) in try self.restart() }
    }

    /// Ends the relay at once (SIGKILL): every connection it holds breaks.
    public func kill() {
        let process = lock.withLock { () -> SpawnedChild? in
            defer { self.process = nil }
            return self.process
        }
        process?.send(SIGKILL)
        process?.waitForExit(timeout: .seconds(5))
    }

    private static func offThePool<Value: Sendable>(_ body: @escaping @Sendable () throws(TransitRelayUnavailable) -> Value) async throws(TransitRelayUnavailable)
        -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, TransitRelayUnavailable>, Never>) in
            DispatchQueue.global().async { continuation.resume(returning: Result { () throws(TransitRelayUnavailable) in try body() }) }
        }
        return try result.get()
    }

    /// Starts the relay again on the same port after ``kill()``.
    ///
    /// - Throws: why it could not start.
    public func restart(timeout: Duration = .seconds(20)) throws(TransitRelayUnavailable) {
        kill()
        _ = try launch(port: port, timeout: timeout)
    }

    /// Whether the relay process runs.
    public var isRunning: Bool { lock.withLock { process?.isRunning ?? false } }

    /// Stops the relay (SIGTERM, then SIGKILL after 3 s) and removes its directory. Idempotent.
    public func stop() {
        stopWithoutCleanup()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Everything the relay logged, every launch (connections and their moods; it never sees
    /// anything secret).
    public func log() -> String {
        let count = lock.withLock { launches }
        return (1...max(count, 1)).map { (try? String(contentsOf: logFile($0), encoding: .utf8)) ?? "" }.joined()
    }

    /// One usage record of the relay (`--log-fd`), written when a connection ends: how it
    /// ended (`mood`: `happy` for a pair that carried bytes, `lonely`, `redundant`, `errory`)
    /// and the bytes it copied after pairing, both directions (`total_bytes`).
    public struct Usage: Hashable, Sendable {
        /// How the connection ended, in the relay's words.
        public let mood: String
        /// Bytes copied after the pairing, both directions together.
        public let totalBytes: Int
    }

    /// The usage records so far, every launch, in order.
    public func usage() -> [Usage] {
        log().split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let mood = object["mood"] as? String, let bytes = object["total_bytes"] as? Int else { return nil }
            return Usage(mood: mood, totalBytes: bytes)
        }
    }

    // MARK: Launching

    private static func arguments(host: String, port: UInt16, rundir: String) -> [String] {
        ["-n", "--pidfile=", "--logfile=-", "--rundir=\(rundir)", "transitrelay", "--port=tcp:\(port):interface=\(host)", "--log-fd=1"]
    }

    private func logFile(_ launch: Int) -> URL { directory.appendingPathComponent("twistd-\(launch).log") }

    /// Launches twistd and returns the port it listens on.
    private func launch(port: UInt16, timeout: Duration) throws(TransitRelayUnavailable) -> UInt16 {
        let launch = lock.withLock { () -> Int in
            launches += 1
            return launches
        }
        let log = logFile(launch).path
        var command = [executable] + Self.arguments(host: host, port: port, rundir: directory.path)
        if let namespace { command = ["/usr/sbin/ip", "netns", "exec", namespace] + command }
        let child: SpawnedChild
        switch SpawnedChild.spawn(command[0], Array(command.dropFirst()), output: .file(log)) {
        case .success(let started): child = started
        case .failure(let error): throw .launchFailed(error.description)
        }
        // The kernel ends the relay when this process is gone (SpawnedChild's death signal;
        // `ip netns exec` execs the relay, so the signal reaches it).
        lock.withLock { process = child }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let listening = Self.listeningPort(in: text) { return listening }
            if !child.isRunning { throw .exited(log: String(text.suffix(2000))) }
            usleep(20_000)
        }
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        throw .notListening(log: String(text.suffix(2000)))
    }

    /// The port of twistd's `Transit starting on PORT` line.
    static func listeningPort(in log: String) -> UInt16? {
        guard let range = log.range(of: "Transit starting on ") else { return nil }
        return UInt16(log[range.upperBound...].prefix { $0.isNumber })
    }

    private func stopWithoutCleanup() {
        let process = lock.withLock { () -> SpawnedChild? in
            defer {
                self.process = nil
                stopped = true
            }
            return self.process
        }
        process?.send(SIGTERM)
        if process?.waitForExit(timeout: .seconds(3)) == false {
            process?.send(SIGKILL)
            process?.waitForExit(timeout: .seconds(3))
        }
    }
}
