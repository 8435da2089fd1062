import AccountHandoffDovecot
import Foundation

/// Reads Dovecot's log, which it writes asynchronously after a connection ends.
enum DovecotLog {
    /// How long Dovecot gets to log the end of a session: its log process writes on its own
    /// schedule, and the shared server also serves the other import suites at the same time.
    static let endDeadline: Duration = .seconds(15)

    struct Timeout: Error, CustomStringConvertible {
        let pending: [String]
        let log: String
        var description: String {
            "Dovecot did not log the end of IMAP sessions \(pending.sorted()) within \(DovecotLog.endDeadline):\n\(log)"
        }
    }

    /// The master process IDs of the IMAP sessions of `server`'s user that have logged in so far.
    static func loggedInSessions(of server: ThrowawayDovecot) -> Set<String> {
        loggedInSessions(in: server.log(), user: server.user)
    }

    private static func loggedInSessions(in log: String, user: String) -> Set<String> {
        Set(matches(in: log, after: "Login: user=<\(user)>", key: "mpid=", until: ","))
    }

    /// For every IMAP session that logged in and is not in `earlier`, the line that ends it,
    /// keyed by its process ID; waits until each of them has ended. (Sessions of tests that
    /// ran before, listed in `earlier`, are not this caller's to wait for.)
    static func finishedSessions(of server: ThrowawayDovecot, startedAfter earlier: Set<String>) async throws -> [String: String] {
        let deadline = ContinuousClock.now + endDeadline
        while true {
            let log = server.log()
            let started = loggedInSessions(in: log, user: server.user).subtracting(earlier)
            var ended: [String: String] = [:]
            for line in log.split(separator: "\n") where line.contains("imap(\(server.user))<") && line.contains("Disconnected") {
                if let process = line.components(separatedBy: "imap(\(server.user))<").last?.components(separatedBy: ">").first {
                    ended[process] = String(line)
                }
            }
            if started.isSubset(of: Set(ended.keys)) { return ended.filter { started.contains($0.key) } }
            guard ContinuousClock.now < deadline else { throw Timeout(pending: Array(started.subtracting(ended.keys)), log: log) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private static func matches(in log: String, after marker: String, key: String, until end: Character) -> [String] {
        log.split(separator: "\n").filter { $0.contains(marker) }.compactMap { line in
            guard let range = line.range(of: key) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != end })
        }
    }
}
