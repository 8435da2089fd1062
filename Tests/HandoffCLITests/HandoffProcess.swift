import Foundation
import Testing

/// Runs the built `handoff` binary the way a person would, capturing everything it prints.
/// Every finished run is checked for the test password on both output streams.
final class HandoffProcess: @unchecked Sendable {
    // Safety of @unchecked Sendable: `output` and `errors` are only touched under `lock`.
    /// The password every test uses; it must never appear in any output.
    static let testPassword = "Tr0ub4dor&3-never-print-me"

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        var all: String { stdout + stderr }
    }

    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()
    private var readersLeft = 2

    init(_ arguments: [String], directory: URL? = nil) throws {
        process.executableURL = try Self.binary()
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = input
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        collect(outputPipe.fileHandleForReading, isError: false)
        collect(errorPipe.fileHandleForReading, isError: true)
    }

    /// Runs to completion with `stdin` as standard input.
    static func run(_ arguments: [String], stdin: String = "", directory: URL? = nil,
                    timeout: Duration = .seconds(10)) throws -> Result {
        let running = try HandoffProcess(arguments, directory: directory)
        running.write(stdin)
        running.closeInput()
        return running.finish(timeout: timeout)
    }

    func write(_ text: String) {
        guard !text.isEmpty else { return }
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    var pid: Int32 { process.processIdentifier }

    func interrupt() {
        kill(process.processIdentifier, SIGINT)
    }

    var stdoutSoFar: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: output, as: UTF8.self)
    }

    /// Waits until standard output contains `text`; returns the output then, or `nil` on timeout.
    func waitForOutput(containing text: String, timeout: Duration = .seconds(5)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let current = stdoutSoFar
            if current.contains(text) { return current }
            if !process.isRunning, readersDone { return stdoutSoFar.contains(text) ? stdoutSoFar : nil }
            usleep(10_000)
        }
        return nil
    }

    /// The transfer code a `send` printed.
    func transferCode(timeout: Duration = .seconds(5)) -> String? {
        guard let text = waitForOutput(containing: "Transfer code: AH:", timeout: timeout) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("Transfer code: ") }
        return line.map { String($0.dropFirst("Transfer code: ".count)) }
    }

    /// Waits for the end (killing the process after `timeout`), then checks that no output
    /// contains the test password.
    func finish(timeout: Duration = .seconds(10)) -> Result {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            Issue.record("handoff \(process.arguments?.first ?? "") did not finish within \(timeout)")
        }
        process.waitUntilExit()
        while !readersDone { usleep(5_000) }
        lock.lock()
        let result = Result(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
                            stderr: String(decoding: errors, as: UTF8.self))
        lock.unlock()
        #expect(!result.stdout.contains(Self.testPassword), "the password appeared on standard output")
        #expect(!result.stderr.contains(Self.testPassword), "the password appeared on standard error")
        return result
    }

    private var readersDone: Bool {
        lock.lock()
        defer { lock.unlock() }
        return readersLeft == 0
    }

    private func collect(_ handle: FileHandle, isError: Bool) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock()
                if isError { errors.append(chunk) } else { output.append(chunk) }
                lock.unlock()
            }
            lock.lock()
            readersLeft -= 1
            lock.unlock()
        }.start()
    }

    /// The `handoff` executable that `swift build --build-tests` put next to the test bundle.
    static func binary() throws -> URL {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let binary = directory.appendingPathComponent("handoff")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        throw MissingBinary()
    }

    struct MissingBinary: Error, CustomStringConvertible {
        var description: String { "The handoff executable was not found next to the tests; build it with 'swift build --build-tests'." }
    }
}
