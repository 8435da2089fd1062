#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIXSpawn
import Foundation

/// A child process started with `posix_spawn`: every signal unblocked and at its default
/// disposition, standard input from `/dev/null`, standard output and error appended to a log
/// file, and no other descriptor of this process (a test process holds many sockets that a
/// relay must not keep open).
final class RelayChildProcess: @unchecked Sendable {
    // Safety of @unchecked Sendable: `status` is only touched under `lock`.
    let pid: pid_t
    private let lock = NSLock()
    private var status: Int32?

    private init(pid: pid_t) { self.pid = pid }

    /// Starts `executable` with `arguments` (never a secret) and this process's environment.
    static func spawn(_ executable: String, _ arguments: [String], log: String) -> Result<RelayChildProcess, TransitRelayUnavailable> {
        #if canImport(Glibc)
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #else
        var attributes: posix_spawnattr_t?
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        #if canImport(Glibc)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        #else
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #endif
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        #if canImport(Glibc)
        let closing = handoff_spawn_close_from(&actions, 3)
        guard closing == 0 else { return .failure(.launchFailed("posix_spawn_file_actions_addclosefrom_np failed with error \(closing)")) }
        #endif
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { return .failure(.launchFailed("posix_spawn(\(executable)) failed with error \(result)")) }
        return .success(RelayChildProcess(pid: pid))
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
            usleep(5_000)
        }
        return true
    }
}
