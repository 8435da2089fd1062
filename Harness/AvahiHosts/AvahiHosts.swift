#if os(Linux)
import Foundation
import Glibc
import SpawnedChild

/// Hosts in network namespaces for the DNS-SD tests: each host a namespace of its own, joined
/// to the others by veth pairs and bridges (in a hub namespace of their own), with its own
/// D-Bus system bus and its own Avahi daemon on it, configured here, so that nothing touches
/// the machine's own network, D-Bus or Avahi. A program runs in a host with ``run(in:_:_:)``.
///
/// ```text
///  host 1 (10.90.0.1)  host 2 (10.90.0.2)  host 3 (10.90.0.3)     segment 0: 10.90.0.0/24
///       |                  |                  |                   segment 1: 10.90.1.0/24 ...
///  ------------- br0 in the hub namespace ---------------
/// ```
///
/// Each host's daemons, and the programs run in it, live in PID and mount namespaces of the
/// host's own (`unshare --pid --mount --mount-proc`, with a tmpfs over `/run` for the Avahi
/// daemon's fixed runtime folder). Their first process's standard input is held by this
/// process: when it ends (``stop()``, or this process dies in any way, `SIGKILL` included) that
/// first process exits and the kernel kills every other process of the host with it;
/// `unshare --kill-child` (`PR_SET_PDEATHSIG`) covers the first process itself. The namespaces
/// are deleted by ``stop()``; those of a run that was killed are deleted by the next
/// ``start(hostCount:segments:)``, which finds them by the process ID in their names.
public final class AvahiHosts: @unchecked Sendable {
    // Safety of @unchecked Sendable: `supervisors` and `stopped` are only touched under
    // `lock`; the rest is immutable.

    static let ip = "/usr/sbin/ip"
    static let unshare = "/usr/bin/unshare"
    static let nsenter = "/usr/bin/nsenter"
    static let setpriv = "/usr/bin/setpriv"
    /// Every namespace of this harness starts with it, then this process's ID and `x`.
    static let namespacePrefix = "ahd"
    private static let serials = Serials()

    /// The hosts, host 1 first.
    public let hosts: [AvahiHost]
    /// The namespace that holds the bridges.
    public let hub: String
    /// The temporary folder of every host.
    public let directory: String

    private let lock = NSLock()
    private var supervisors: [Int: HostProcess] = [:]
    private var stopped = false

    private init(hosts: [AvahiHost], hub: String, directory: String) {
        self.hosts = hosts
        self.hub = hub
        self.directory = directory
    }

    deinit { stop() }

    /// Host `number` (from 1).
    public func host(_ number: Int) -> AvahiHost { hosts[number - 1] }

    /// Why hosts cannot be built on this machine, or `nil` when they can: said plainly, so a
    /// test is skipped with that sentence.
    public static let unavailableReason: String? = {
        guard geteuid() == 0 else { return "The DNS-SD namespace tests need root to create namespaces (.ci/run runs as root); skipped." }
        for (program, package) in [(ip, "iproute2"), (unshare, "util-linux"), (nsenter, "util-linux"), (setpriv, "util-linux"),
                                   ("/usr/bin/dbus-daemon", "dbus-daemon"),
                                   ("/usr/bin/dbus-send", "dbus-bin"), ("/usr/sbin/avahi-daemon", "avahi-daemon")]
        where !FileManager.default.isExecutableFile(atPath: program) {
            return AvahiHostsUnavailable.missingProgram("\(program) (Debian package \(package))").description + " Skipped."
        }
        // Named like the hosts' namespaces, so a run killed right here leaves one the next start deletes.
        let probe = "\(namespacePrefix)\(getpid())xprobe"
        let made = try? command([ip, "netns", "add", probe])
        _ = try? command([ip, "netns", "del", probe])
        guard let made, made.status == 0 else {
            return "This process may not create network namespaces (ip netns add: \(made?.output ?? "could not run ip")); skipped."
        }
        return nil
    }()

    /// ``start(hostCount:segments:)`` on a thread of its own: its calls wait for `ip` and the
    /// daemons, which must not hold a Swift concurrency thread (nor one of Dispatch's).
    public static func started(hostCount: Int, segments: [[Int]]? = nil) async throws(AvahiHostsUnavailable) -> AvahiHosts {
        let result = await HostProcess.onItsOwnThread { Result { () throws(AvahiHostsUnavailable) in try start(hostCount: hostCount, segments: segments) } }
        return try result.get()
    }

    /// Builds `hostCount` hosts and starts their daemons; returns once every Avahi daemon runs.
    ///
    /// - Parameter segments: the hosts (by number) on each segment; by default one segment
    ///   with every host. A host on two segments has an address on each (10.90.S.N/24).
    /// - Throws: ``AvahiHostsUnavailable`` naming the step that failed; what was built is removed.
    public static func start(hostCount: Int, segments: [[Int]]? = nil) throws(AvahiHostsUnavailable) -> AvahiHosts {
        removeStale()
        let segments = segments ?? [Array(1...hostCount)]
        let serial = serials.next()
        let id = "\(namespacePrefix)\(getpid())x\(serial)"
        var template = Array("/tmp/handoff-avahi-\(getpid())-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw .stepFailed("mkdtemp failed with errno \(errno)") }
        let directory = String(cString: made)
        // Interface names have at most 15 bytes: "v", 5 digits of the process ID, the serial, "hNsS".
        let short = "\(getpid() % 100_000)\(serial)"
        var hosts: [AvahiHost] = []
        for number in 1...hostCount {
            let joined = segments.indices.filter { segments[$0].contains(number) }
            let folder = "\(directory)/h\(number)"
            hosts.append(AvahiHost(number: number, namespace: "\(id)h\(number)", addresses: joined.map { "10.90.\($0).\(number)" },
                                   interfaces: joined.map { "v\(short)h\(number)s\($0)" }, hostName: "handoff-host\(number)",
                                   busAddress: "unix:path=\(folder)/bus.socket", directory: folder))
        }
        let lab = AvahiHosts(hosts: hosts, hub: "\(id)hub", directory: directory)
        do throws(AvahiHostsUnavailable) {
            try lab.buildNetwork(segments: segments)
            try lab.startDaemons()
        } catch {
            lab.stop()
            throw error
        }
        return lab
    }

    /// Starts `executable` in host `number`, with the host's environment, in its network
    /// namespace and in the PID and mount namespaces of its daemons (`nsenter`; the mount
    /// namespace has the `/proc` of that PID namespace), so that it dies with the host however
    /// this process ends; `setpriv --pdeathsig` ends it with `nsenter` too.
    public func run(in number: Int, _ executable: String, _ arguments: [String]) throws(AvahiHostsUnavailable) -> HostProcess {
        try HostProcess.started(try command(in: number, executable, arguments), environment: host(number).environment)
    }

    /// The command line that starts `executable` in host `number` as ``run(in:_:_:)`` does, for
    /// a caller that starts the process itself (with the host's ``AvahiHost/environment``).
    public func command(in number: Int, _ executable: String, _ arguments: [String]) throws(AvahiHostsUnavailable) -> [String] {
        let host = host(number)
        guard let supervisor = lock.withLock({ supervisors[number] }) else { throw .stepFailed("host \(number) is stopped") }
        // The supervisor is `unshare`: its mount namespace and its children's PID namespace are the host's.
        let enter = [Self.nsenter, "--net=/run/netns/\(host.namespace)", "--mount=/proc/\(supervisor.pid)/ns/mnt",
                     "--pid=/proc/\(supervisor.pid)/ns/pid_for_children", "--", Self.setpriv, "--pdeathsig", "KILL", "--"]
        return enter + [executable] + arguments
    }

    /// Stops host `number`'s Avahi daemon (SIGTERM: it says goodbye and leaves the bus) and
    /// waits until it exited.
    public func stopAvahi(in number: Int) async throws(AvahiHostsUnavailable) {
        try await control(number, "stop-avahi", expecting: "avahi-stopped")
    }

    /// Starts host `number`'s Avahi daemon again and waits until it runs.
    public func startAvahi(in number: Int) async throws(AvahiHostsUnavailable) {
        try await control(number, "start-avahi", expecting: "avahi-running")
    }

    /// ``stop()`` on a thread of its own.
    public func stopped() async {
        await HostProcess.onItsOwnThread { [self] in stop() }
    }

    /// Stops every host's processes, deletes the namespaces and removes the folder. Idempotent.
    public func stop() {
        let running = lock.withLock { () -> [HostProcess]? in
            guard !stopped else { return nil }
            stopped = true
            defer { supervisors.removeAll() }
            return Array(supervisors.values)
        }
        guard let running else { return }
        for supervisor in running { supervisor.closeInput() }
        for supervisor in running { _ = supervisor.waitForExitBlocking(timeout: .seconds(10)) }
        for namespace in hosts.map(\.namespace) + [hub] { _ = try? Self.command([Self.ip, "netns", "del", namespace]) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: Building

    private func buildNetwork(segments: [[Int]]) throws(AvahiHostsUnavailable) {
        var root = ["netns add \(hub)"] + hosts.map { "netns add \($0.namespace)" }
        var hubCommands = ["link set lo up"]
        for segment in segments.indices {
            // Multicast snooping off: every mDNS packet reaches every port, with no querier needed.
            hubCommands += ["link add br\(segment) type bridge mcast_snooping 0", "link set br\(segment) up"]
        }
        for host in hosts {
            var hostCommands = ["link set lo up"]
            for (index, segment) in segments.indices.filter({ segments[$0].contains(host.number) }).enumerated() {
                let inside = host.interfaces[index]
                let outside = "p" + inside.dropFirst()
                root.append("link add \(inside) netns \(host.namespace) type veth peer name \(outside) netns \(hub)")
                hostCommands += ["addr add \(host.addresses[index])/24 dev \(inside)", "link set \(inside) up"]
                hubCommands += ["link set \(outside) master br\(segment)", "link set \(outside) up"]
            }
            try write(hostCommands.joined(separator: "\n") + "\n", to: "\(directory)/\(host.namespace).batch")
        }
        try write(root.joined(separator: "\n") + "\n", to: "\(directory)/root.batch")
        try write(hubCommands.joined(separator: "\n") + "\n", to: "\(directory)/hub.batch")
        try Self.ipBatch(nil, "\(directory)/root.batch")
        try Self.ipBatch(hub, "\(directory)/hub.batch")
        for host in hosts { try Self.ipBatch(host.namespace, "\(directory)/\(host.namespace).batch") }
    }

    private func startDaemons() throws(AvahiHostsUnavailable) {
        for host in hosts {
            do {
                try FileManager.default.createDirectory(atPath: host.directory, withIntermediateDirectories: false)
                try HostFiles.busConfiguration(socket: "\(host.directory)/bus.socket")
                    .write(toFile: "\(host.directory)/bus.conf", atomically: true, encoding: .utf8)
                try HostFiles.avahiConfiguration(hostName: host.hostName, interfaces: host.interfaces)
                    .write(toFile: "\(host.directory)/avahi.conf", atomically: true, encoding: .utf8)
            } catch {
                throw .stepFailed("writing host \(host.number)'s configuration: \(error)")
            }
            let supervisor = try HostProcess.started(
                [Self.ip, "netns", "exec", host.namespace, Self.unshare, "--mount", "--pid", "--fork", "--mount-proc", "--kill-child", "--propagation", "private",
                 "/bin/sh", "-c", HostFiles.hostScript, "sh", host.directory],
                environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C.UTF-8"])
            lock.withLock { supervisors[host.number] = supervisor }
        }
        for host in hosts {
            let supervisor = lock.withLock { supervisors[host.number] }
            let answer = supervisor?.lineBlocking(timeout: .seconds(30)) { ["avahi-running", "avahi-exited", "avahi-timeout"].contains($0) || $0.hasSuffix("-failed") || $0.hasPrefix("bus-") && $0 != "bus-ready" }
            guard answer == "avahi-running" else {
                let log = (try? String(contentsOfFile: "\(host.directory)/daemons.log", encoding: .utf8)) ?? ""
                throw .stepFailed("host \(host.number)'s daemons did not start (\(answer ?? "no answer")): \(log.suffix(1500))")
            }
        }
    }

    private func control(_ number: Int, _ command: String, expecting answer: String) async throws(AvahiHostsUnavailable) {
        guard let supervisor = lock.withLock({ supervisors[number] }) else { throw .stepFailed("host \(number) is stopped") }
        let before = supervisor.lines.count
        supervisor.send(command)
        let reply = await supervisor.line(startingWith: "avahi-", after: before, timeout: .seconds(30))
        guard reply == answer else { throw .stepFailed("host \(number) answered \(reply ?? "nothing") to \(command)") }
    }

    private func write(_ text: String, to path: String) throws(AvahiHostsUnavailable) {
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch { throw .stepFailed("writing \(path): \(error)") }
    }

    // MARK: Commands

    /// Runs `ip [-n namespace] -batch file`.
    private static func ipBatch(_ namespace: String?, _ file: String) throws(AvahiHostsUnavailable) {
        let arguments = (namespace.map { ["-n", $0] } ?? []) + ["-batch", file]
        let result = try command([ip] + arguments)
        guard result.status == 0 else { throw .stepFailed("ip \(arguments.joined(separator: " ")) failed: \(result.output)") }
    }

    /// Runs a command to its end (at most 30 s) in this process's namespace; its status and output.
    static func command(_ command: [String]) throws(AvahiHostsUnavailable) -> (status: Int32, output: String) {
        let process = try HostProcess.started(command, environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        process.closeInput()
        let status = process.waitForExitBlocking(timeout: .seconds(30))
        return (status, process.lines.joined(separator: "\n"))
    }

    // MARK: What a killed run left

    /// ``removeStale()`` on a thread of its own.
    public static func removedStale() async {
        await HostProcess.onItsOwnThread { removeStale() }
    }

    /// Deletes the namespaces (killing what still runs in them) and folders of runs whose
    /// process is gone; ``start(hostCount:segments:)`` calls it first.
    public static func removeStale() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/run/netns") else { return }
        for name in names where name.hasPrefix(namespacePrefix) {
            guard let pid = pid_t(name.dropFirst(namespacePrefix.count).prefix { $0.isNumber }), !isAlive(pid) else { continue }
            if let listed = try? command([ip, "netns", "pids", name]) {
                for line in listed.output.split(separator: "\n") { if let pid = pid_t(line) { kill(pid, SIGKILL) } }
            }
            _ = try? command([ip, "netns", "del", name])
        }
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [] where folder.hasPrefix("handoff-avahi-") {
            guard let pid = pid_t(folder.dropFirst("handoff-avahi-".count).prefix { $0.isNumber }), !isAlive(pid) else { continue }
            try? FileManager.default.removeItem(atPath: "/tmp/\(folder)")
        }
    }

    private static func isAlive(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno != ESRCH }
}

/// Serial numbers for the namespaces of one process.
final class Serials: @unchecked Sendable {
    // Safety of @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0

    func next() -> Int { lock.withLock { value += 1; return value } }
}
#endif
