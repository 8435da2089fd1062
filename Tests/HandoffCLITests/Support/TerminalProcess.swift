#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SpawnedChild

/// Runs `handoff` on a pseudo-terminal, as when a person types into it: standard input,
/// output and error are the terminal, and the test reads the terminal's settings (termios)
/// the way `stty -a` would.
final class TerminalProcess: @unchecked Sendable {
    // Safety of @unchecked Sendable: `output` and `reading` are only touched under `lock`.
    private let master: Int32
    private let slave: Int32
    private let process: SpawnedChild
    private let lock = NSLock()
    private var output = Data()
    private var reading = true
    private var readerDone = false

    init(_ arguments: [String]) throws {
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
        process = try SpawnedChild.spawn(try HandoffProcess.binary().path, arguments, input: .descriptor(slave),
                                         output: .descriptor(slave), errors: .descriptor(slave)).get()
        Thread { [self] in read() }.start()
    }

    deinit {
        lock.withLock { reading = false }
        while !lock.withLock({ readerDone }) { usleep(5_000) }
        close(master)
        close(slave)
    }

    var pid: Int32 { process.pid }

    /// Everything the process wrote to the terminal so far (and the terminal's echo).
    var screen: String { lock.withLock { String(decoding: output, as: UTF8.self) } }

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

    /// Waits until the screen shows `text`.
    func waitForScreen(containing text: String, timeout: Duration = HandoffProcess.patience) async -> Bool {
        await waitUntil(timeout: timeout) { self.screen.contains(text) }
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
        try? await Task.sleep(for: .milliseconds(50))  // the last output
        let signal = process.terminationSignal
        return (signal ?? process.terminationStatus, signal != nil)
    }

    private func read() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while lock.withLock({ reading }) {
            var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) == 1 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            if count > 0 { lock.withLock { output.append(contentsOf: buffer[0..<count]) } } else { usleep(10_000) }
        }
        lock.withLock { readerDone = true }
    }

    struct TerminalUnavailable: Error {}
}
