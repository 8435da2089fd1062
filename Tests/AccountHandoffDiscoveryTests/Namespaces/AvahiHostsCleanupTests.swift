#if os(Linux)
import AvahiHosts
import Foundation
import Testing
import TestProcesses

/// A test run killed with SIGKILL leaves no daemon and no program of its hosts running, and the
/// next start deletes the namespaces it left.
@Suite(.startsProcesses, .enabled(if: AvahiHosts.unavailableReason == nil, Comment(rawValue: AvahiHosts.unavailableReason ?? "")), .timeLimit(.minutes(10)))
struct AvahiHostsCleanupTests {
    @Test func aKilledRunLeavesNoDaemonAndTheNextStartDeletesItsNamespaces() async throws {
        let probe = try HostProcess.started([try ProbeBinary.path("avahi-hosts-probe")], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        let ready = try #require(await probe.line(startingWith: "ready\t", timeout: Patience.deadline), "\(probe.lines)")
        let fields = ready.split(separator: "\t").map(String.init)
        let (hub, namespace, folder) = (fields[1], fields[2], fields[3])
        // The program may still be on its way in (nsenter, setpriv, then sleep).
        let expected: Set<String> = ["avahi-daemon", "dbus-daemon", "sleep"]
        let started = ContinuousClock.now + Patience.deadline
        var running = try processes(in: namespace)
        while !Set(running.map(\.command)).isSuperset(of: expected), ContinuousClock.now < started {
            try await Task.sleep(for: .milliseconds(20))
            running = try processes(in: namespace)
        }
        #expect(Set(running.map(\.command)).isSuperset(of: expected), "\(running)")
        // Told apart from later processes that reuse their IDs (builds beside the tests wrap them).
        let identities = running.compactMap { ProcessIdentity.of($0.pid) }

        probe.send(signal: SIGKILL)
        #expect(await probe.finish(timeout: Patience.deadline) == 128 + SIGKILL)
        // The host's first process sees its standard input end and the kernel ends the rest.
        let deadline = ContinuousClock.now + Patience.deadline
        while try !processes(in: namespace).isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(try processes(in: namespace).isEmpty)
        // A process leaves its namespace early in its exit, before it has ended: wait for the end.
        #expect(await Patience.waitUntil { identities.allSatisfy { !$0.isLive } })
        for process in identities { #expect(!process.isLive, "\(process) still runs") }
        // A killed run cannot delete its namespaces; another run's start may already have
        // (it removes every dead run's), so what counts is that none is left after this one.
        await AvahiHosts.removedStale()
        #expect(namespaces().isDisjoint(with: [hub, namespace]))
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    private func namespaces() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? [])
    }

    /// The processes whose network namespace is `namespace` (as `ip netns pids` finds them).
    private func processes(in namespace: String) throws -> [(pid: pid_t, command: String)] {
        let inode = try inodeOfNamespace("/run/netns/\(namespace)")
        var found: [(pid_t, String)] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/ns/net"),
                  link == "net:[\(inode)]" else { continue }
            let command = (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8)) ?? ""
            found.append((pid, command.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return found
    }

    private func inodeOfNamespace(_ path: String) throws -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return UInt64(info.st_ino)
    }
}
#endif
