import Foundation

/// One process as Linux's `/proc` shows it, told apart from a later process that reuses its ID
/// by its start time (IDs wrap at `kernel.pid_max`, 32,768 on this machine, which builds beside
/// the tests go through in minutes).
public struct ProcessIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The process ID.
    public let pid: Int32
    /// When it started, in clock ticks since boot (`/proc/PID/stat` field 22).
    public let startTime: UInt64
    /// Its name (`/proc/PID/comm`, at most 15 bytes).
    public let command: String

    /// The process with ID `pid` now, or `nil` when there is none.
    public static func of(_ pid: Int32) -> ProcessIdentity? {
        guard let fields = statFields(pid), let startTime = UInt64(fields[19]) else { return nil }
        let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        return ProcessIdentity(pid: pid, startTime: startTime, command: command ?? "?")
    }

    /// Whether this very process still runs (a zombie, waiting for its parent to reap it, has ended).
    public var isLive: Bool {
        guard let fields = Self.statFields(pid), UInt64(fields[19]) == startTime else { return false }
        return fields[0] != "Z" && fields[0] != "X"
    }

    public var description: String { "\(pid) \(command)" }

    /// The fields of `/proc/PID/stat` after the command's closing parenthesis, from the state
    /// (field 3) on.
    private static func statFields(_ pid: Int32) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? fields : nil
    }
}
