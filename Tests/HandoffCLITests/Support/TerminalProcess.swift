#if canImport(Glibc)
import Glibc
#endif
import AccountHandoffTestSupport
import Foundation

/// Runs `handoff` on a pseudo-terminal, as when a person types into it: standard input,
/// output and error are the terminal, and the test reads the terminal's settings (termios)
/// the way `stty -a` would.
final class TerminalProcess: @unchecked Sendable {
    // Safety of @unchecked Sendable: the descriptors and the process are set up in init; what
    // changes afterwards lives in `record`, under its lock.
    private let master: Int32
    private let slave: Int32
    private let process = Process()
    private let record = Record()

    /// Starts `handoff arguments...` on a new terminal.
    ///
    /// - Parameters:
    ///   - environment: variables to set on top of this process's (an empty value removes one).
    ///   - userID: run as this user (and its group) instead of this process's, through
    ///     setpriv (this process must be root).
    init(_ arguments: [String], environment: [String: String] = [:], userID: uid_t? = nil) throws {
        try CLIKeyring.service()  // before the child inherits this process's environment
        // posix_openpt and friends are not visible from Swift's Glibc module; this is what
        // they do on Linux: open the multiplexer, unlock the new terminal (TIOCSPTLCK), ask
        // its number (TIOCGPTN) and open /dev/pts/N.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw TerminalUnavailable()
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw TerminalUnavailable() }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        try HandoffProcess.prepare(process, arguments, environment: environment, userID: userID)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        process.terminationHandler = { [record] _ in record.noteEnd() }
        try process.run()
        Thread { [record, master] in record.read(from: master) }.start()
    }

    /// Starts `handoff arguments...` under `gate` (pam_wrapper): no other pam_wrapper process
    /// starts meanwhile, and the start lock is held until the child printed something.
    static func start(_ arguments: [String], gate: CLIGate, environment: [String: String] = [:]) async throws -> TerminalProcess {
        let merged = gate.environment.merging(environment) { $1 }
        return try await PAMWrapperWorld.withStartLockOnItsOwnThread {
            let terminal = try TerminalProcess(arguments, environment: merged)
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, terminal.screen.isEmpty, terminal.isRunning { usleep(5_000) }
            return terminal
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        record.stopReading()
        close(master)
        close(slave)
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Everything the process wrote to the terminal so far (and the terminal's echo), with
    /// the terminal's line endings (`\r\n`) as `\n`.
    var screen: String { record.text.replacingOccurrences(of: "\r\n", with: "\n") }

    /// When the process ended, if it has.
    var endedAt: ContinuousClock.Instant? { record.ended }

    /// Whether the terminal echoes what is typed (the ECHO flag of its termios).
    var echoes: Bool {
        var settings = termios()
        tcgetattr(slave, &settings)
        return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Types `text` on the terminal's keyboard side.
    func type(_ text: String) {
        _ = text.utf8CString.dropLast().withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits until the screen shows `text` (`count` times).
    func waitForScreen(containing text: String, count: Int = 1, timeout: Duration = .seconds(20)) async -> Bool {
        await waitUntil(timeout: timeout) { self.screen.components(separatedBy: text).count - 1 >= count }
    }

    /// Waits until `condition` holds (checked every 10 ms).
    func waitUntil(timeout: Duration, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// Waits for the end (killing the process after `timeout`): the status and whether a
    /// signal ended it.
    func finish(timeout: Duration = .seconds(20)) async -> (status: Int32, killedBySignal: Bool) {
        if !(await waitUntil(timeout: timeout) { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? await Task.sleep(for: .milliseconds(50))  // the last output
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    struct TerminalUnavailable: Error {}
}

/// What the terminal showed and when the process ended, shared with the reading thread and
/// the termination handler (neither keeps the ``TerminalProcess`` alive).
private final class Record: @unchecked Sendable {
    // Safety of @unchecked Sendable: every stored property is only touched under `lock`.
    private let lock = NSLock()
    private var output = Data()
    private var reading = true
    private var readerDone = false
    private var endInstant: ContinuousClock.Instant?

    var text: String { lock.withLock { String(decoding: output, as: UTF8.self) } }
    var ended: ContinuousClock.Instant? { lock.withLock { endInstant } }

    func noteEnd() {
        let now = ContinuousClock.now
        lock.withLock { if endInstant == nil { endInstant = now } }
    }

    /// Stops the reader and waits until it has let go of the descriptor.
    func stopReading() {
        lock.withLock { reading = false }
        while !lock.withLock({ readerDone }) { usleep(5_000) }
    }

    func read(from master: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while lock.withLock({ reading }) {
            var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) == 1 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            if count > 0 { lock.withLock { output.append(contentsOf: buffer[0..<count]) } } else { usleep(10_000) }
        }
        lock.withLock { readerDone = true }
    }
}
