import AccountHandoffDovecot
import Foundation

/// Reads Dovecot's log, which it writes asynchronously after a connection ends.
enum DovecotLog {
    struct Timeout: Error, CustomStringConvertible {
        let log: String
        var description: String { "Dovecot did not log the end of every IMAP session within 5 seconds:\n\(log)" }
    }

    /// For every IMAP session that logged in, the line that ends it, keyed by its process ID;
    /// waits until each logged-in session has ended.
    static func finishedSessions(of server: ThrowawayDovecot) async throws -> [String: String] {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let log = server.log()
            let started = Set(matches(in: log, after: "Login: user=<\(server.user)>", key: "mpid=", until: ","))
            var ended: [String: String] = [:]
            for line in log.split(separator: "\n") where line.contains("imap(\(server.user))<") && line.contains("Disconnected") {
                if let process = line.components(separatedBy: "imap(\(server.user))<").last?.components(separatedBy: ">").first {
                    ended[process] = String(line)
                }
            }
            if started.isSubset(of: Set(ended.keys)) { return ended.filter { started.contains($0.key) } }
            guard ContinuousClock.now < deadline else { throw Timeout(log: log) }
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
