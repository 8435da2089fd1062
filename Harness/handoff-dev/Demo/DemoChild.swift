#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HandoffCLI
import AccountHandoff
import Foundation

/// One side of the demo: a `handoff send` or `handoff receive` child process whose output is
/// printed with a label, and whose questions are handed to the demo's prompt broker.
final class DemoChild: @unchecked Sendable {
    // Safety of @unchecked Sendable: the mutable state below is only touched under `lock`;
    // `process` and the pipes are set up before the reader threads start.
    let label: String
    private let process = Process()
    private let standardInput = Pipe()
    private let standardOutput = Pipe()
    private let standardError = Pipe()
    private let console: Console
    private let onLine: @Sendable (String) -> Void
    private let lock = NSLock()
    private var prompts: [String] = []
    private var openStreams = 2
    private var linesSeen = 0

    /// - Parameters:
    ///   - environment: the child's environment (this process's when `nil`).
    ///   - onLine: called with every complete output line (after it is printed).
    init(label: String, executable: URL, arguments: [String], environment: [String: String]? = nil, console: Console,
         onLine: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.console = console
        self.onLine = onLine
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
    }

    /// Starts the process and its two reader threads.
    func start() throws {
        try process.run()
        startReader(standardOutput.fileHandleForReading, toStandardError: false)
        startReader(standardError.fileHandleForReading, toStandardError: true)
    }

    /// The next question the child asked and nobody answered yet.
    func nextPrompt() -> String? {
        lock.lock()
        defer { lock.unlock() }
        return prompts.isEmpty ? nil : prompts.removeFirst()
    }

    /// The endings of the children's questions.
    static let promptMarkers = [Prompt.marker, Prompt.codeMarker, Prompt.loginPasswordMarker] + ConflictPrompt.markers

    /// Sends one answer line to the child.
    func answer(_ line: String) {
        standardInput.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Sends a secret answer line (the gate's login password) from guarded memory, and wipes it.
    func answer(secret: SecretBytes) {
        var bytes = secret.withUnsafeBytes { Data($0) }
        bytes.append(0x0A)
        standardInput.fileHandleForWriting.write(bytes)
        bytes.resetBytes(in: 0..<bytes.count)
        secret.wipe()
    }

    /// Waits until the child printed its first line, ended, or `timeout` seconds passed.
    func waitForFirstLine(timeout: Double) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, lock.withLock({ linesSeen == 0 && openStreams > 0 }) { usleep(5_000) }
    }

    /// Forwards Ctrl-C, so the child cancels cleanly.
    func interrupt() {
        if process.isRunning { kill(process.processIdentifier, SIGINT) }
    }

    /// Whether the process ended and all its output was printed.
    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return openStreams == 0 && !process.isRunning
    }

    /// The exit status once finished; a death by signal counts as failure.
    var exitCode: Int32 {
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : ExitCode.failure.rawValue
    }

    private func startReader(_ handle: FileHandle, toStandardError: Bool) {
        let thread = Thread { [self] in
            var pending = Data()
            var swallowNextLine = false
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    if swallowNextLine {
                        swallowNextLine = false  // the child's echo of the answer the broker forwarded
                        continue
                    }
                    guard let line = DemoWording.shown(line) else { continue }
                    toStandardError ? console.error("\(label) │ \(line)") : console.line("\(label) │ \(line)")
                    lock.withLock { linesSeen += 1 }
                    onLine(line)
                }
                let partial = String(decoding: pending, as: UTF8.self)
                if !toStandardError, DemoChild.promptMarkers.contains(where: { partial.hasSuffix($0) }) {
                    pending.removeAll()
                    swallowNextLine = true
                    lock.lock()
                    prompts.append(partial)
                    lock.unlock()
                }
            }
            if !pending.isEmpty {
                let line = String(decoding: pending, as: UTF8.self)
                toStandardError ? console.error("\(label) │ \(line)") : console.line("\(label) │ \(line)")
            }
            lock.lock()
            openStreams -= 1
            lock.unlock()
        }
        thread.name = "handoff.demo.\(label)"
        thread.start()
    }
}
