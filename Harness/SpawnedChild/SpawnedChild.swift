#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIXSpawn
import Foundation

/// A child process of the test harness (a throwaway Dovecot, Debian's transit relay, the
/// Secret Service's daemons, Thunderbird, the `handoff` binaries and probes the tests run),
/// with every signal unblocked and at its default disposition. (A child of `Foundation.Process`
/// inherits the spawning thread's blocked signals; Dovecot then never sees SIGCHLD or SIGTERM,
/// and a shell's `wait` never returns.) Its three standard streams (by default `/dev/null`,
/// or the files or descriptors given) are all it inherits: a descriptor of this process without
/// close-on-exec (a test process holds many sockets; Foundation's `Process` holds one per child
/// it is starting) would otherwise stay open in the server for its whole life.
///
/// On Linux the child ends with this process, however this process ends (`SIGKILL` included):
/// the kernel sends it a death signal (`PR_SET_PDEATHSIG`) when the thread that started it
/// ends, and every child is started by one thread that lives as long as the process. So a
/// killed test run leaves no server behind. (Elsewhere it is started with `posix_spawn`.)
package final class SpawnedChild: @unchecked Sendable {
    // Safety of @unchecked Sendable: `status` is only touched under `lock`.
    /// The child's process ID.
    package let pid: pid_t
    private let lock = NSLock()
    private var status: Int32?

    private init(pid: pid_t) { self.pid = pid }

    /// Why a child could not be started.
    package struct LaunchFailed: Error, CustomStringConvertible {
        /// The failed call and its error number.
        package let description: String
    }

    /// Where one of the child's standard streams goes.
    package enum Stream {
        /// A file, opened for reading (input) or appended to with mode 0600 (output).
        case file(String)
        /// A descriptor of this process, given to the child as the stream.
        case descriptor(Int32)
    }

    /// Starts `executable` with `arguments` (never a secret). Its environment is
    /// `environment`, or this process's when `nil`; its standard input is `input`, its
    /// standard output `output`, and its standard error `errors` (`nil`: the same as output);
    /// its working directory is `directory`, or this process's when `nil`. On Linux it gets
    /// `deathSignal` when this process ends (SIGTERM lets a server stop its own children).
    package static func spawn(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                              input: Stream = .file("/dev/null"), output: Stream = .file("/dev/null"),
                              errors: Stream? = nil, directory: String? = nil,
                              deathSignal: Int32 = SIGKILL) -> Result<SpawnedChild, LaunchFailed> {
        #if os(Linux)
        return SpawnerThread.shared.run {
            spawnTied(executable, arguments, environment: environment, input: input, output: output, errors: errors,
                      directory: directory, deathSignal: deathSignal)
        }
        #else
        precondition(directory == nil, "a working directory is only offered on Linux")
        return posixSpawn(executable, arguments, environment: environment, input: input, output: output, errors: errors)
        #endif
    }

    #if os(Linux)
    /// ``spawn(_:_:environment:input:output:errors:directory:deathSignal:)`` on the spawner thread.
    private static func spawnTied(_ executable: String, _ arguments: [String], environment: [String: String]?,
                                  input: Stream, output: Stream, errors: Stream?, directory: String?,
                                  deathSignal: Int32) -> Result<SpawnedChild, LaunchFailed> {
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        func descriptor(_ stream: Stream, forInput: Bool) -> Int32? {
            switch stream {
            case .descriptor(let descriptor): return descriptor
            case .file(let path):
                let flags = forInput ? O_RDONLY : O_WRONLY | O_CREAT | O_APPEND
                let descriptor = open(path, flags | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { return nil }
                opened.append(descriptor)
                return descriptor
            }
        }
        guard let stdin = descriptor(input, forInput: true), let stdout = descriptor(output, forInput: false) else {
            return .failure(LaunchFailed(description: "opening a standard stream of \(executable) failed with error \(errno)"))
        }
        var stderr: Int32 = -1
        if let errors {
            guard let opened = descriptor(errors, forInput: false) else {
                return .failure(LaunchFailed(description: "opening the standard error of \(executable) failed with error \(errno)"))
            }
            stderr = opened
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = handoff_spawn_tied(executable, argv, envp, stdin, stdout, stderr, directory, deathSignal, &pid)
        guard result == 0 else { return .failure(LaunchFailed(description: "starting \(executable) failed with error \(result)")) }
        return .success(SpawnedChild(pid: pid))
    }
    #else
    private static func posixSpawn(_ executable: String, _ arguments: [String], environment: [String: String]?,
                                   input: Stream, output: Stream, errors: Stream?) -> Result<SpawnedChild, LaunchFailed> {
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
        func give(_ stream: Stream, as target: Int32) {
            switch stream {
            case .file(let path) where target == 0: posix_spawn_file_actions_addopen(&actions, target, path, O_RDONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        give(input, as: 0)
        give(output, as: 1)
        if let errors { give(errors, as: 2) } else { posix_spawn_file_actions_adddup2(&actions, 1, 2) }
        #if canImport(Glibc)
        let closing = handoff_spawn_close_from(&actions, 3)
        guard closing == 0 else { return .failure(LaunchFailed(description: "posix_spawn_file_actions_addclosefrom_np failed with error \(closing)")) }
        #endif

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { return .failure(LaunchFailed(description: "posix_spawn(\(executable)) failed with error \(result)")) }
        return .success(SpawnedChild(pid: pid))
    }
    #endif

    /// Whether the process is still running (reaps it once it has exited).
    package var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard status == nil else { return false }
        var raw: Int32 = 0
        let reaped = waitpid(pid, &raw, WNOHANG)
        if reaped == pid { status = raw }
        return reaped == 0
    }

    /// The exit status (or 128 + signal), once it exited.
    package var terminationStatus: Int32 {
        lock.lock()
        defer { lock.unlock() }
        guard let raw = status else { return -1 }
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }

    /// The signal that ended it, once it exited (`nil` when it exited by itself).
    package var terminationSignal: Int32? {
        lock.lock()
        defer { lock.unlock() }
        guard let raw = status, raw & 0x7f != 0 else { return nil }
        return raw & 0x7f
    }

    /// Sends `signal` if the process has not been reaped.
    package func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits until the process exits or `timeout` passes; whether it exited.
    @discardableResult
    package func waitForExit(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            guard ContinuousClock.now < deadline else { return false }
            usleep(5_000)
        }
        return true
    }
}

#if os(Linux)
/// The one thread that starts every ``SpawnedChild`` of this process. A child's death signal
/// fires when the thread that started it ends, not the process; this thread never ends.
private final class SpawnerThread: @unchecked Sendable {
    // Safety of @unchecked Sendable: `jobs` is only touched under `condition`.
    static let shared = SpawnerThread()

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []

    private init() {
        let thread = Thread { [self] in serve() }
        thread.name = "spawned-child.spawner"
        thread.start()
    }

    /// Runs `body` on the spawner thread and returns its result.
    func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
        let box = ResultBox<Value>()
        condition.withLock {
            jobs.append { box.set(body()) }
            condition.broadcast()
        }
        return box.get()
    }

    private func serve() {
        while true {
            let job = condition.withLock { () -> @Sendable () -> Void in
                while jobs.isEmpty { condition.wait() }
                return jobs.removeFirst()
            }
            job()
        }
    }
}

/// One value handed from the spawner thread to the thread that waits for it.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    // Safety of @unchecked Sendable: `value` is only touched under `condition`.
    private let condition = NSCondition()
    private var value: Value?

    func set(_ new: Value) {
        condition.withLock {
            value = new
            condition.broadcast()
        }
    }

    func get() -> Value {
        condition.withLock {
            while value == nil { condition.wait() }
            return value!
        }
    }
}
#endif
