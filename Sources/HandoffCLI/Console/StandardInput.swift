#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

/// Standard input in the order the CLI needs it: first, optionally, a transfer code or a
/// password, read byte by byte so nothing after that line is consumed early; then answers to
/// questions, as an async sequence of lines read on a background thread so the session keeps
/// running while a person decides.
package final class StandardInput: @unchecked Sendable {
    // Safety of @unchecked Sendable: `started` is only touched under `lock`; the stream is
    // thread-safe.
    private let lock = NSLock()
    private var started = false
    private let (stream, sink) = AsyncStream.makeStream(of: SecretBytes.self)

    /// The longest line kept; longer ones are cut (an answer is a few characters).
    static let maximumLineByteCount = 4096

    /// Whether standard input is a terminal (a person types, and sees what they type).
    package var isTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Reads standard input from the first question on.
    package init() {}

    /// Reads one line now, byte by byte; `nil` at end of input. For a transfer code only.
    func readLineNow() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = BlockingCall.read(STDIN_FILENO, into: &byte, count: 1)
            guard count == 1 else { break }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            if bytes.count < Self.maximumLineByteCount { bytes.append(byte) }
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Reads the first line straight into guarded memory, with terminal echo off when a person
    /// types it (restored on every exit path, Ctrl-C included). A trailing `\r` is dropped.
    ///
    /// - Parameter prompt: shown first when a person types (it says which password).
    /// - Returns: `nil` when the line is empty or input ended first; the caller explains.
    /// - Throws: ``CLIError`` when the line is longer than `maximumByteCount`.
    func readSecretLine(prompt: String, maximumByteCount: Int, console: Console) throws(CLIError) -> SecretBytes? {
        defer { if isTerminal { console.raw("\n") } }
        return try TerminalEcho.withEchoOff { () throws(CLIError) -> SecretBytes? in
            // Asked only once echo is off, so nothing typed in between is shown or discarded.
            if isTerminal { console.raw(prompt) }
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: maximumByteCount + 1)
            buffer.initialize(repeating: 0)
            defer {
                buffer.update(repeating: 0)
                buffer.deallocate()
            }
            var count = 0
            var byte: UInt8 = 0
            while true {
                let got = BlockingCall.read(STDIN_FILENO, into: &byte, count: 1)
                guard got == 1, byte != 0x0A else { break }
                guard count <= maximumByteCount else { continue }  // keep reading to the end of the line
                buffer[count] = byte
                count += 1
            }
            byte = 0
            if count > 0, buffer[count - 1] == 0x0D { count -= 1 }
            guard count <= maximumByteCount else {
                throw CLIError(sentenceCatalog.sentence("password.tooLong", .number(maximumByteCount), in: .cli), exitCode: .invalidInput)
            }
            guard count > 0 else { return nil }
            do throws(HandoffError) {
                return try SecretBytes(copying: UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[0..<count]))
            } catch {
                throw CLIError(error.sentence(in: .cli), exitCode: .failure)
            }
        }
    }

    /// The answer lines from now on, each in guarded memory (a line may be the login password
    /// the local-authentication gate asks for); the sequence ends at end of input. Starts the
    /// background reader on first use. A trailing `\r` is dropped; nothing else is changed.
    func answers() -> AsyncStream<SecretBytes> {
        lock.withLock {
            if !started {
                started = true
                let thread = Thread { [self] in readAnswers() }
                thread.name = "handoff.stdin"
                thread.start()
            }
        }
        return stream
    }

    /// Reads byte by byte into one fixed buffer that is wiped after every line, so no answer
    /// (a password included) is left in ordinary memory.
    private func readAnswers() {
        let capacity = Self.maximumLineByteCount
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0)
        defer {
            buffer.update(repeating: 0)
            buffer.deallocate()
        }
        var count = 0
        var overlong = false
        var byte: UInt8 = 0
        func emit() {
            var length = count
            if length > 0, buffer[length - 1] == 0x0D { length -= 1 }
            if !overlong, let line = try? SecretBytes(copying: UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[0..<length])) {
                sink.yield(line)
            }
            buffer.update(repeating: 0)
            count = 0
            overlong = false
        }
        while true {
            let got = BlockingCall.read(STDIN_FILENO, into: &byte, count: 1)
            guard got == 1 else { break }
            if byte == 0x0A {
                emit()
            } else if count < capacity {
                buffer[count] = byte
                count += 1
            } else {
                overlong = true  // an answer is a few characters; an overlong line is dropped
            }
        }
        byte = 0
        if count > 0 { emit() }
        sink.finish()
    }
}
