#if os(Linux)
import AvahiHosts
import Foundation
import Testing
import TestProcesses

/// The harness's probes, built next to the tests by `swift build --build-tests`.
enum ProbeBinary {
    /// The path of probe `name` (`dnssd-probe`, `avahi-hosts-probe`).
    static func path(_ name: String) throws -> String {
        try BuiltExecutable.url(named: name).path
    }
}

extension AvahiHosts {
    /// Runs `dnssd-probe` with `arguments` in host `number`.
    func probe(in number: Int, _ arguments: String...) throws -> HostProcess {
        try run(in: number, try ProbeBinary.path("dnssd-probe"), arguments)
    }
}

extension HostProcess {
    /// Waits for a line starting with `prefix` and records an issue (with every line so far)
    /// when none comes; the line's tab-separated fields after the prefix's own.
    @discardableResult
    func expectLine(_ prefix: String, timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation) async -> String? {
        let line = await line(startingWith: prefix, timeout: timeout)
        if line == nil { Issue.record("no line starting with \(prefix.debugDescription) in: \(lines)", sourceLocation: sourceLocation) }
        return line
    }
}
#endif

#if os(Linux)
/// Builds `count` hosts (see ``AvahiHosts/start(hostCount:segments:)``), runs `body` with
/// them, and stops them however `body` ends.
func withAvahiHosts<Value>(_ count: Int, segments: [[Int]]? = nil, _ body: (AvahiHosts) async throws -> Value) async throws -> Value {
    let hosts = try await AvahiHosts.started(hostCount: count, segments: segments)
    do {
        let value = try await body(hosts)
        await hosts.stopped()
        return value
    } catch {
        await hosts.stopped()
        throw error
    }
}
#endif

#if os(Linux)
/// How long the tests' receivers browse, in milliseconds: a second more than a receiver's
/// ``AccountHandoffDiscovery/ReceiverDiscovery/browsingTime``, for a machine busy with other
/// builds (what is tested is the decision, not the time).
let browsingTime = "3000"
#endif
