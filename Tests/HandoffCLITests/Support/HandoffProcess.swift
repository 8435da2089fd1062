import AccountHandoffTestSupport
import Foundation
import SpawnedChild
import TestProcesses
import Testing

/// Runs the built `handoff` binary the way a person (or an attacker) would, capturing
/// everything it prints. Every finished run is checked for the test password on both output
/// streams.
///
/// Waiting is asynchronous (`Task.sleep`), so tests that wait for a process do not hold one of
/// the few threads that run the suite's tests in parallel. The process is a ``SpawnedChild``:
/// it ends with the test process, however that ends.
final class HandoffProcess: @unchecked Sendable {
    // Safety of @unchecked Sendable: `output`, `errors` and `readersLeft` are only touched
    // under `lock`; `process` and the pipes are set up before the reader threads start.
    /// The password every test uses; it must never appear in any output.
    static let testPassword = "Tr0ub4dor&3-never-print-me"

    /// How long a test waits for what a `handoff` child does next (a line, its end).
    static let patience = Patience.deadline

    /// How a finished run ended and what it printed.
    struct Result {
        let status: Int32
        /// Whether the process was ended by a signal (`status` is then the signal number).
        let killedBySignal: Bool
        let stdout: String
        /// Standard error as printed, including the warnings below.
        let stderrAsPrinted: String
        /// Standard error without the `--no-local-auth` warning line and the warning that the
        /// answers come from a pipe, which most tests run with and a few tests
        /// (`CLILocalGateTests`, `CLIStandardInputTests`) check on their own.
        var stderr: String {
            stderrAsPrinted.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { line in !Self.warningPrefixes.contains { line.hasPrefix($0) } }
                .joined(separator: "\n")
        }
        var all: String { stdout + stderr }
        static let noGateWarningPrefix = "Warning: --no-local-auth: "
        static let pipedAnswersWarningPrefix = "Warning: standard input is not a terminal, "
        /// Both warnings' starts, in English and in German (the catalog's `gate.noGate.*` and
        /// `piped.warning`).
        static let warningPrefixes = [noGateWarningPrefix, pipedAnswersWarningPrefix,
                                      "Warnung: --no-local-auth: ", "Warnung: Die Standardeingabe ist kein Terminal, "]
    }

    private let process: SpawnedChild
    private let arguments: [String]
    private let input = InheritanceSafePipe()
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()
    private var readersLeft = 2

    /// Starts `handoff arguments...`; standard input is a pipe the test writes to.
    ///
    /// - Parameters:
    ///   - directory: the working directory.
    ///   - environment: variables to set (or, with an empty value, remove) in the child's
    ///     environment, on top of this process's.
    ///   - withoutFileOverride: run without the power to ignore file permissions, so a
    ///     directory without write permission is read-only for the child even when the tests
    ///     run as root (setpriv drops CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and CAP_FOWNER).
    ///   - program: the executable, when not the one ``binary(for:)`` picks for `arguments`.
    ///   - userID: run as this user (and its group), through setpriv (the tests must run as root).
    ///   - wrapper: a program and its arguments that run the binary (its path and `arguments`
    ///     follow them), as a person types `dbus-run-session -- sh -c ...`.
    init(_ arguments: [String], directory: URL? = nil, environment: [String: String] = [:], withoutFileOverride: Bool = false,
         program: String? = nil, userID: uid_t? = nil, wrapper: [String] = []) throws {
        try CLIKeyring.service()  // before the child inherits this process's environment
        self.arguments = arguments
        var (executable, argv, merged) = try Self.command(arguments, environment: environment, withoutFileOverride: withoutFileOverride,
                                                          program: program, userID: userID)
        if let outer = wrapper.first {
            argv = Array(wrapper.dropFirst()) + [executable] + argv
            executable = outer
        }
        let outputPipe = InheritanceSafePipe()
        let errorPipe = InheritanceSafePipe()
        process = try SpawnedChild.spawn(executable, argv, environment: merged, input: .descriptor(input.fileHandleForReading.fileDescriptor),
                                         output: .descriptor(outputPipe.fileHandleForWriting.fileDescriptor),
                                         errors: .descriptor(errorPipe.fileHandleForWriting.fileDescriptor), directory: directory?.path).get()
        // The child has its copies; the test keeps only its own ends, so closing the input
        // ends the child's standard input and the child's exit ends the output.
        try input.fileHandleForReading.close()
        try outputPipe.fileHandleForWriting.close()
        try errorPipe.fileHandleForWriting.close()
        collect(outputPipe.fileHandleForReading, isError: false)
        collect(errorPipe.fileHandleForReading, isError: true)
    }

    /// A child whose test let go of it without waiting for its end is killed.
    deinit {
        process.send(SIGKILL)
    }

    /// The program, arguments and environment that run `handoff arguments...` (or `program`):
    /// through setpriv as `userID`, or without the power to ignore file permissions.
    static func command(_ arguments: [String], environment: [String: String], withoutFileOverride: Bool = false,
                        program: String? = nil, userID: uid_t? = nil) throws -> (String, [String], [String: String]) {
        let binary = try program.map { try Self.binary(named: $0) } ?? Self.binary(for: arguments)
        let executable: String
        let argv: [String]
        if let userID {
            executable = "/usr/bin/setpriv"
            argv = ["--reuid=\(userID)", "--regid=\(userID)", "--clear-groups", "--", binary.path] + arguments
        } else if withoutFileOverride, geteuid() == 0 {
            let capabilities = "-dac_override,-dac_read_search,-fowner"
            executable = "/usr/bin/setpriv"
            argv = ["--bounding-set", capabilities, "--inh-caps", capabilities, "--", binary.path] + arguments
        } else {
            executable = binary.path
            argv = arguments
        }
        var merged = ProcessInfo.processInfo.environment
        // English unless a test asks for another language: the assertions quote English.
        merged["LC_ALL"] = nil
        merged["LC_MESSAGES"] = nil
        merged["LANG"] = "C.UTF-8"
        for (name, value) in environment { merged[name] = value.isEmpty ? nil : value }
        return (executable, argv, merged)
    }

    /// Runs to completion with `stdin` as standard input (then end of input).
    static func run(_ arguments: [String], stdin: String = "", directory: URL? = nil, environment: [String: String] = [:],
                    withoutFileOverride: Bool = false, userID: uid_t? = nil, timeout: Duration = patience, program: String? = nil,
                    wrapper: [String] = []) async throws -> Result {
        let running = try HandoffProcess(arguments, directory: directory, environment: environment, withoutFileOverride: withoutFileOverride,
                                         program: program, userID: userID, wrapper: wrapper)
        running.write(stdin)
        running.closeInput()
        return await running.finish(timeout: timeout)
    }

    /// Writes to the process's standard input.
    func write(_ text: String) {
        guard !text.isEmpty else { return }
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Ends the process's standard input.
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    var pid: Int32 { process.pid }
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` (SIGINT is what Ctrl-C delivers).
    func signal(_ number: Int32) {
        process.send(number)
    }

    /// Stops the process (SIGSTOP) and waits until every one of its threads is stopped, as
    /// `/proc/PID/task/*/stat` shows (state `T`): a stop that has not taken hold yet would let
    /// the process read what arrives next. Returns whether it stopped within `timeout`.
    func stop(timeout: Duration = patience) async -> Bool {
        process.send(SIGSTOP)
        return await Patience.waitUntil(within: timeout) { Self.allThreadsStopped(pid) }
    }

    /// Whether every thread of `pid` is in state `T` (stopped by a signal).
    private static func allThreadsStopped(_ pid: Int32) -> Bool {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks), !threads.isEmpty else { return false }
        return threads.allSatisfy { thread in
            // The state follows the command name, which is in parentheses and may hold spaces.
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].split(separator: " ").first == "T"
        }
    }

    var stdoutSoFar: String { lock.withLock { String(decoding: output, as: UTF8.self) } }
    var stderrSoFar: String { lock.withLock { String(decoding: errors, as: UTF8.self) } }

    /// Waits until standard output (or standard error, with `inErrors`) contains `text`;
    /// returns that stream then, or `nil` when the process ended first or on timeout.
    func waitForOutput(containing text: String, inErrors: Bool = false, timeout: Duration = patience) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let current = inErrors ? stderrSoFar : stdoutSoFar
            if current.contains(text) { return current }
            if !process.isRunning, readersDone {
                let last = inErrors ? stderrSoFar : stdoutSoFar
                return last.contains(text) ? last : nil
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        // One last look: a test process whose threads were all busy may wake after the
        // deadline, with the output long there.
        let current = inErrors ? stderrSoFar : stdoutSoFar
        return current.contains(text) ? current : nil
    }

    /// Waits until standard output contains `text` `count` times.
    func waitForOutput(containing text: String, count: Int, timeout: Duration = patience) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if stdoutSoFar.components(separatedBy: text).count - 1 >= count { return true }
            if !process.isRunning, readersDone { return stdoutSoFar.components(separatedBy: text).count - 1 >= count }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return stdoutSoFar.components(separatedBy: text).count - 1 >= count
    }

    /// The transfer code a `send` printed.
    func transferCode(timeout: Duration = patience) async -> String? {
        guard let text = await waitForOutput(containing: "Transfer code: AH:", timeout: timeout) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("Transfer code: ") }
        return line.map { String($0.dropFirst("Transfer code: ".count)) }
    }

    /// The short code (`DDD DDD`) a receiver printed for the sending person to type.
    func shortCode(timeout: Duration = patience) async -> String? {
        let marker = "Code for the sending device: "
        guard let text = await waitForOutput(containing: marker, timeout: timeout),
              let range = text.range(of: marker) else { return nil }
        let digits = String(text[range.upperBound...].prefix(7))
        return digits.count == 7 ? digits : nil
    }

    /// Waits for the end (killing the process after `timeout`), then checks that no output
    /// contains the test password.
    func finish(timeout: Duration = patience) async -> Result {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning {
            Issue.record("handoff \(arguments.first ?? "") did not finish within \(timeout); killed it")
            process.send(SIGKILL)
            while process.isRunning { try? await Task.sleep(for: .milliseconds(5)) }
        }
        while !readersDone { try? await Task.sleep(for: .milliseconds(5)) }
        let signal = process.terminationSignal
        let result = lock.withLock {
            Result(status: signal ?? process.terminationStatus, killedBySignal: signal != nil,
                   stdout: String(decoding: output, as: UTF8.self), stderrAsPrinted: String(decoding: errors, as: UTF8.self))
        }
        #expect(!result.stdout.contains(Self.testPassword), "the password appeared on standard output")
        #expect(!result.stderr.contains(Self.testPassword), "the password appeared on standard error")
        return result
    }

    private var readersDone: Bool { lock.withLock { readersLeft == 0 } }

    private func collect(_ handle: FileHandle, isError: Bool) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { isError ? errors.append(chunk) : output.append(chunk) }
            }
            lock.withLock { readersLeft -= 1 }
        }.start()
    }

    /// The developer tool's commands (`handoff-dev`); every other command runs `handoff`.
    static let developerCommands: Set<String> = ["demo", "bench", "vectors"]

    /// The program that runs `arguments`: `handoff-dev` for its commands (and their help),
    /// `handoff` for everything else.
    static func binary(for arguments: [String]) throws -> URL {
        let command = arguments.first == "help" ? arguments.dropFirst().first : arguments.first
        return try binary(named: command.map(developerCommands.contains) == true ? "handoff-dev" : "handoff")
    }

    /// An executable that `swift build --build-tests` put next to the test bundle.
    static func binary(named name: String = "handoff") throws -> URL {
        try BuiltExecutable.url(named: name)
    }
}

/// What `/proc` shows other local users about a process.
enum ProcessInspection {
    /// The process's command line as `/proc/PID/cmdline` shows it (arguments joined by spaces).
    static func commandLine(of pid: Int32) -> String? {
        read("/proc/\(pid)/cmdline")
    }

    /// The process's environment as `/proc/PID/environ` shows it.
    static func environment(of pid: Int32) -> String? {
        read("/proc/\(pid)/environ")
    }

    /// The processes whose parent is `pid`.
    static func children(of pid: Int32) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(Int32.init).filter { candidate in
            guard let status = read("/proc/\(candidate)/status") else { return false }
            return status.split(separator: "\n").contains { $0 == "PPid:\t\(pid)" }
        }
    }

    /// How many descriptors the process has open.
    static func openDescriptorCount(of pid: Int32) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")).map(\.count)
    }

    /// The process's resident memory in kB.
    static func residentKilobytes(of pid: Int32) -> Int? {
        guard let status = read("/proc/\(pid)/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    /// The whole file, NUL bytes as spaces. `/proc` files report a size of 0, and
    /// `FileManager.contents(atPath:)` then stops after one page (4,032 of 10,830 bytes of a
    /// maps file, measured), so a long environment would be checked only in part: read to the end.
    private static func read(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.readToEnd() ?? Data() } catch { return nil }  // nil: already at the end
        return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
    }
}
