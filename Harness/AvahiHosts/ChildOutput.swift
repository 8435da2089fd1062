#if os(Linux)
import Foundation
import Glibc

/// The lines a child process writes to a descriptor, read as they come on a thread of their
/// own. Waits are asynchronous (a waiter is resumed by the reading thread, or by its deadline),
/// so no thread of any pool is held while a test waits; the harness's own threads may also
/// block on ``waitForLine(timeout:where:)``.
final class ChildOutput: @unchecked Sendable {
    // Safety of @unchecked Sendable: `lines`, `ended` and `waiters` are only touched under
    // `condition`.
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false
    private var waiters: [UInt64: Waiter] = [:]
    private var nextWaiter: UInt64 = 0

    /// What a waiter waits for: a line after the first `skipping` that `matches`, or the end.
    private struct Waiter {
        let skipping: Int
        let matches: @Sendable (String) -> Bool
        let continuation: CheckedContinuation<String?, Never>
    }

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
                    update { $0.lines.append(line) }
                }
            }
            close(descriptor)
            update { output in
                if !pending.isEmpty { output.lines.append(String(decoding: pending, as: UTF8.self)) }
                output.ended = true
            }
        }
        thread.name = "avahi-hosts.output"
        thread.start()
    }

    /// Every line so far.
    var all: [String] { condition.withLock { lines } }

    /// Whether the writers closed the descriptor.
    var isEnded: Bool { condition.withLock { ended } }

    /// The first line after the first `skipping` that satisfies `matches`; `nil` when the
    /// output ends or `timeout` passes first.
    func line(after skipping: Int = 0, timeout: Duration, where matches: @escaping @Sendable (String) -> Bool) async -> String? {
        let id = condition.withLock { () -> UInt64 in
            nextWaiter += 1
            return nextWaiter
        }
        let deadline = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.expire(id)
        }
        defer { deadline.cancel() }
        return await withCheckedContinuation { continuation in
            let settled = condition.withLock { () -> String?? in
                if let found = lines.dropFirst(skipping).first(where: matches) { return .some(found) }
                if ended { return .some(nil) }
                waiters[id] = Waiter(skipping: skipping, matches: matches, continuation: continuation)
                return .none
            }
            if case .some(let value) = settled { continuation.resume(returning: value) }
        }
    }

    /// Whether the output ended within `timeout`.
    func ended(within timeout: Duration) async -> Bool {
        _ = await line(timeout: timeout) { _ in false }
        return isEnded
    }

    /// Blocks until a line satisfies `matches`, the output ends, or `timeout` passes; the
    /// line, or `nil`. For the harness's own threads only.
    func waitForLine(timeout: Duration, where matches: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: seconds(timeout))
        return condition.withLock {
            while true {
                if let found = lines.first(where: matches) { return found }
                if ended || !condition.wait(until: deadline) { return lines.first(where: matches) }
            }
        }
    }

    /// Blocks until the output ends or `timeout` passes. For the harness's own threads only.
    func waitForEnd(timeout: Duration) {
        let deadline = Date(timeIntervalSinceNow: seconds(timeout))
        condition.withLock {
            while !ended { if !condition.wait(until: deadline) { return } }
        }
    }

    /// Applies `change` under the lock, wakes blocked threads, and resumes the waiters it settles.
    private func update(_ change: (ChildOutput) -> Void) {
        let settled = condition.withLock { () -> [(CheckedContinuation<String?, Never>, String?)] in
            change(self)
            condition.broadcast()
            var settled: [(CheckedContinuation<String?, Never>, String?)] = []
            for (id, waiter) in waiters {
                if let found = lines.dropFirst(waiter.skipping).first(where: waiter.matches) {
                    settled.append((waiter.continuation, found))
                } else if ended {
                    settled.append((waiter.continuation, nil))
                } else {
                    continue
                }
                waiters[id] = nil
            }
            return settled
        }
        for (continuation, value) in settled { continuation.resume(returning: value) }
    }

    private func expire(_ id: UInt64) {
        let waiter = condition.withLock { waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: nil)
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
#endif
