#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

/// Standard input in the order the CLI needs it: first, optionally, a password or a transfer
/// code read byte by byte (so nothing after that line is consumed early), then answers to
/// prompts, read on a background thread so the session loop can keep serving the network
/// while it waits for a person.
final class StandardInput: @unchecked Sendable {
    // Safety of @unchecked Sendable: `lines`, `ended` and `started` are only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    private var ended = false
    private var started = false

    /// What the person answered, if anything yet.
    enum Answer: Equatable {
        case line(String)
        case endOfInput
    }

    /// Reads one line now, byte by byte; `nil` at end of input. For the transfer code only.
    func readLineNow() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1 {
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            if bytes.count < 4096 { bytes.append(byte) }
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Reads the first line of standard input straight into guarded memory, with terminal
    /// echo switched off when a person types it. A trailing `\r` is dropped.
    ///
    /// - Returns: `nil` when the line is empty or input ended first; the caller explains.
    /// - Throws: ``CLIError`` when the line is longer than `maximumByteCount`.
    func readSecretLine(maximumByteCount: Int, console: Console) throws(CLIError) -> SecretBytes? {
        let isTerminal = isatty(STDIN_FILENO) == 1
        var saved = termios()
        if isTerminal {
            console.raw("Password (not shown): ")
            tcgetattr(STDIN_FILENO, &saved)
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if isTerminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                console.raw("\n")
            }
        }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: maximumByteCount + 1)
        buffer.initialize(repeating: 0)
        defer {
            buffer.update(repeating: 0)
            buffer.deallocate()
        }
        var count = 0
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1, byte != 0x0A {
            guard count <= maximumByteCount else { continue }  // keep reading to the end of the line
            buffer[count] = byte
            count += 1
        }
        byte = 0
        if count > 0, buffer[count - 1] == 0x0D { count -= 1 }
        guard count <= maximumByteCount else {
            throw CLIError("The password is longer than \(maximumByteCount) bytes, which the transfer cannot carry.", exitCode: .invalidInput)
        }
        guard count > 0 else { return nil }
        return SecretBytes(copying: UnsafeBufferPointer(rebasing: buffer[0..<count]))
    }

    /// Starts the background reader for answers. Idempotent.
    func startAnswerReader() {
        lock.lock()
        defer { lock.unlock() }
        guard !started else { return }
        started = true
        let thread = Thread { [self] in readAnswers() }
        thread.name = "handoff.stdin"
        thread.start()
    }

    /// The next answer if one arrived; never blocks.
    func nextAnswer() -> Answer? {
        lock.lock()
        defer { lock.unlock() }
        if !lines.isEmpty { return .line(lines.removeFirst()) }
        return ended ? .endOfInput : nil
    }

    private func readAnswers() {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            pending += chunk[0..<count]
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                append(line.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if pending.count > 4096 { pending.removeAll() }  // an absurdly long line is not an answer
        }
        if !pending.isEmpty { append(String(decoding: pending, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) }
        lock.lock()
        ended = true
        lock.unlock()
    }

    private func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }
}
