#if canImport(Glibc)
import Glibc
#endif
import AccountHandoffTestSupport
import Foundation
import SpawnedChild

/// Runs `handoff` on a pseudo-terminal, as when a person types into it: standard input,
/// output and error are the terminal, and the test reads the terminal's settings (termios)
/// the way `stty -a` would.
final class TerminalProcess: @unchecked Sendable {
    // Safety of @unchecked Sendable: the descriptors and the process are set up in init; what
    // changes afterwards lives in `record`, under its lock.
    private let master: Int32
    private let slave: Int32
    private let process: SpawnedChild
    private let record = Record()

    /// Starts `handoff arguments...` on a new terminal.
    ///
    /// - Parameters:
    ///   - environment: variables to set on top of this process's (an empty value removes one).
    ///   - userID: run as this user (and its group) instead of this process's, through
    ///     setpriv (this process must be root).
    ///   - size: the window's size (columns, rows); without it the terminal reports 0 × 0, as
    ///     a new pseudo-terminal does.
    init(_ arguments: [String], environment: [String: String] = [:], userID: uid_t? = nil, size: (columns: Int, rows: Int)? = nil) throws {
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
        if let size {
            var window = winsize(ws_row: UInt16(size.rows), ws_col: UInt16(size.columns), ws_xpixel: 0, ws_ypixel: 0)
            guard ioctl(slave, UInt(TIOCSWINSZ), &window) == 0 else { throw TerminalUnavailable() }
        }
        let (executable, argv, merged) = try HandoffProcess.command(arguments, environment: environment, userID: userID)
        process = try SpawnedChild.spawn(executable, argv, environment: merged, input: .descriptor(slave),
                                         output: .descriptor(slave), errors: .descriptor(slave)).get()
        Thread { [record, master] in record.read(from: master) }.start()
        Thread { [record, process] in
            while process.isRunning { usleep(2_000) }
            record.noteEnd()
        }.start()
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
        if process.isRunning { process.send(SIGKILL) }
        record.stopReading()
        close(master)
        close(slave)
    }

    var pid: Int32 { process.pid }
    var isRunning: Bool { process.isRunning }

    /// Everything the process wrote to the terminal so far (and the terminal's echo), with the
    /// terminal's line ends as plain newlines.
    var screen: String { record.text.replacingOccurrences(of: "\r\n", with: "\n") }

    /// When the process was seen to end (within a few milliseconds).
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

    func signal(_ number: Int32) { process.send(number) }

    /// Waits until the screen shows `text` (`count` times).
    func waitForScreen(containing text: String, count: Int = 1, timeout: Duration = HandoffProcess.patience) async -> Bool {
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
    func finish(timeout: Duration = HandoffProcess.patience) async -> (status: Int32, killedBySignal: Bool) {
        if !(await waitUntil(timeout: timeout) { !process.isRunning }) { process.send(SIGKILL) }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(5)) }
        // The last output: everything the process wrote is in the terminal's buffer once it
        // has ended, so stop the reading thread and take the rest here, until the buffer is
        // empty; no guess of how long a loaded machine takes to read it.
        record.askToStopReading()
        while !record.readerHasStopped { try? await Task.sleep(for: .milliseconds(5)) }
        record.drain(master)
        let signal = process.terminationSignal
        return (signal ?? process.terminationStatus, signal != nil)
    }

    struct TerminalUnavailable: Error {}

    /// What the terminal showed and when the process ended, shared with the reading thread.
    private final class Record: @unchecked Sendable {
        // Safety of @unchecked Sendable: every field is touched under `lock` only.
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

        /// Stops the reading thread and waits until it has.
        func stopReading() {
            askToStopReading()
            while !readerHasStopped { usleep(5_000) }
        }

        /// Tells the reading thread to stop after its current read.
        func askToStopReading() { lock.withLock { reading = false } }

        /// Whether the reading thread has stopped (after ``askToStopReading()``).
        var readerHasStopped: Bool { lock.withLock { readerDone } }

        /// Reads what is left in the terminal's buffer, without waiting for more; only once
        /// the reading thread has stopped, so that the output stays in order.
        func drain(_ master: Int32) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 0) == 1, entry.revents & Int16(POLLIN) != 0 else { return }
                let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                lock.withLock { output.append(contentsOf: buffer[0..<count]) }
            }
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
}
