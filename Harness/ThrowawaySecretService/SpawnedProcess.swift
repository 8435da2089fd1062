#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIXSpawn
import Foundation

/// A child process with exactly the environment it is given, standard input fed from a
/// string, standard output captured or sent to a log, and no other descriptor of this process
/// (Foundation's `Process` would pass the whole environment, including the person's session bus).
final class SpawnedProcess: @unchecked Sendable {
    // Safety of @unchecked Sendable: `status` is only touched under `lock`; the rest is immutable.
    let pid: pid_t
    /// The read end of the child's standard output, when captured.
    let output: FileHandle?
    private let lock = NSLock()
    private var status: Int32?

    private init(pid: pid_t, output: FileHandle?) {
        self.pid = pid
        self.output = output
    }

    struct LaunchFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `executable`. `input` (then the end of input) is its standard input; its
    /// standard output is captured when `captureOutput`, else appended to `log`; standard error
    /// goes to `log` (or `/dev/null`).
    static func start(_ executable: String, _ arguments: [String], environment: [String: String], input: String = "",
                      captureOutput: Bool, log: String?) throws(LaunchFailed) -> SpawnedProcess {
        let stdin = try socketPair()
        let stdout = captureOutput ? try socketPair() : nil
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        let logPath = log ?? "/dev/null"
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        }
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        #if canImport(Glibc)
        _ = handoff_spawn_close_from(&actions, 3)
        #endif
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(stdin.read)
        if let stdout { close(stdout.write) }
        guard result == 0 else {
            close(stdin.write)
            if let stdout { close(stdout.read) }
            throw LaunchFailed(description: "posix_spawn(\(executable)) failed with error \(result)")
        }
        let bytes = Array(input.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { systemSend(stdin.write, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { break }
            offset += sent
        }
        close(stdin.write)
        return SpawnedProcess(pid: pid, output: stdout.map { FileHandle(fileDescriptor: $0.read, closeOnDealloc: true) })
    }

    /// Runs `executable` to its end (at most `timeout`); its exit status and standard output.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    timeout: Duration = .seconds(10)) throws(LaunchFailed) -> (status: Int32, output: String) {
        let child = try start(executable, arguments, environment: environment, captureOutput: true, log: nil)
        let data = child.output?.readDataToEndOfFile() ?? Data()
        guard child.waitForExit(timeout: timeout) else {
            child.send(SIGKILL)
            child.waitForExit(timeout: .seconds(5))
            throw LaunchFailed(description: "\(executable) did not finish within \(timeout)")
        }
        return (child.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Whether the process is still running (reaps it once it has exited).
    var isRunning: Bool {
        lock.withLock {
            guard status == nil else { return false }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid { status = raw }
            return reaped == 0
        }
    }

    /// The exit status (or 128 + signal), once it exited.
    var terminationStatus: Int32 {
        lock.withLock {
            guard let raw = status else { return -1 }
            let signal = raw & 0x7f
            return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        }
    }

    /// Sends `signal` if the process has not been reaped.
    func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits until the process exits or `timeout` passes; whether it exited.
    @discardableResult
    func waitForExit(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            guard ContinuousClock.now < deadline else { return false }
            usleep(2_000)
        }
        return true
    }

    /// A connected pair, close-on-exec from birth: `read` for the child's end of standard
    /// input or this process's end of its output, `write` for the other.
    private static func socketPair() throws(LaunchFailed) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw LaunchFailed(description: "socketpair failed with error \(errno)") }
        shutdown(ends[0], Int32(SHUT_WR))
        shutdown(ends[1], Int32(SHUT_RD))
        return (ends[0], ends[1])
    }
}

/// The libc `send`, named so the method above does not shadow it.
private func systemSend(_ socket: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(socket, buffer, count, flags)
}
