#if os(Linux)
import Glibc
import Foundation

/// The lines a child process writes to a descriptor, read as they come on a thread of their
/// own, with waits for a line (blocking, for the harness's own threads, or async).
final class ChildOutput: @unchecked Sendable {
    // Safety of @unchecked Sendable: `lines` and `ended` are only touched under `condition`.
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false

    /// Reads `descriptor` (closing it at its end) until the writers close it.
    init(reading descriptor: Int32) {
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    condition.withLock {
                        lines.append(line)
                        condition.broadcast()
                    }
                }
            }
            close(descriptor)
            condition.withLock {
                if !pending.isEmpty { lines.append(String(decoding: pending, as: UTF8.self)) }
                ended = true
                condition.broadcast()
            }
        }
        thread.name = "avahi-hosts.output"
        thread.start()
    }

    /// Every line so far.
    var all: [String] { condition.withLock { lines } }

    /// Whether the writers closed the descriptor.
    var isEnded: Bool { condition.withLock { ended } }

    /// Blocks until a line after the first `skipping` satisfies `matches`, the output ends,
    /// or `timeout` passes; the line, or `nil`.
    func waitForLine(after skipping: Int = 0, timeout: Duration, where matches: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        return condition.withLock {
            while true {
                if let found = lines.dropFirst(skipping).first(where: matches) { return found }
                if ended || !condition.wait(until: deadline) { return lines.dropFirst(skipping).first(where: matches) }
            }
        }
    }

    /// Blocks until the output ends or `timeout` passes; whether it ended.
    @discardableResult
    func waitForEnd(timeout: Duration) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        return condition.withLock {
            while !ended { if !condition.wait(until: deadline) { return ended } }
            return true
        }
    }
}
#endif
