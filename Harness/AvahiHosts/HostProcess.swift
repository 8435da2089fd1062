#if os(Linux)
import Glibc
import Foundation
import SpawnedChild

/// A program running in one host of ``AvahiHosts``, in the host's network and PID namespaces
/// (so it dies with the host), with exactly the host's environment (its own system bus), its
/// standard input held open by this process (its end is the program's cue to stop, also when
/// this process is killed), and its standard output and error read line by line.
public final class HostProcess: @unchecked Sendable {
    // Safety of @unchecked Sendable: `input` is only touched under `lock`; the rest is immutable
    // or thread-safe (`SpawnedChild`, `ChildOutput`).
    private let child: SpawnedChild
    private let output: ChildOutput
    private let lock = NSLock()
    private var input: Int32

    /// The process ID of the command started (for a host's program, `nsenter`, its parent).
    public var pid: pid_t { child.pid }

    private init(child: SpawnedChild, output: ChildOutput, input: Int32) {
        self.child = child
        self.output = output
        self.input = input
    }

    deinit {
        closeInput()
        // Killed, and reaped on a thread of its own: the last reference may go on any thread.
        guard child.isRunning else { return }
        child.send(SIGKILL)
        Thread { [child] in child.waitForExit(timeout: .seconds(5)) }.start()
    }

    /// Starts `command` (an executable's path and its arguments) in this process's namespaces
    /// with exactly `environment`.
    public static func started(_ command: [String], environment: [String: String]) throws(AvahiHostsUnavailable) -> HostProcess {
        let stdin = try socketPair()
        let stdout: (read: Int32, write: Int32)
        do { stdout = try socketPair() } catch {
            close(stdin.read)
            close(stdin.write)
            throw error
        }
        let started = SpawnedChild.spawn(command[0], Array(command.dropFirst()), environment: environment,
                                         input: .descriptor(stdin.read), output: .descriptor(stdout.write))
        close(stdin.read)
        close(stdout.write)
        switch started {
        case .success(let child):
            return HostProcess(child: child, output: ChildOutput(reading: stdout.read), input: stdin.write)
        case .failure(let failure):
            close(stdin.write)
            close(stdout.read)
            throw .stepFailed("starting \(command[0]): \(failure.description)")
        }
    }

    /// Sends `signal` to the program if it has not been reaped.
    public func send(signal: Int32) { child.send(signal) }

    /// Every line the program wrote so far.
    public var lines: [String] { output.all }

    /// Writes `line` and a newline to the program's standard input.
    public func send(_ line: String) {
        lock.withLock {
            guard input >= 0 else { return }
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(input, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Ends the program's standard input.
    public func closeInput() {
        lock.withLock {
            if input >= 0 { close(input) }
            input = -1
        }
    }

    /// Waits for a line, among those written after the first `skipping`, that starts with
    /// `prefix`; the line, or `nil` when the output ended or `timeout` passed first.
    public func line(startingWith prefix: String, after skipping: Int = 0, timeout: Duration = .seconds(30)) async -> String? {
        await output.line(after: skipping, timeout: timeout) { $0.hasPrefix(prefix) }
    }

    /// Waits for a line, among those written after the first `skipping`, that contains `text`;
    /// the line, or `nil` when the output ended or `timeout` passed first.
    public func line(containing text: String, after skipping: Int = 0, timeout: Duration = .seconds(30)) async -> String? {
        await output.line(after: skipping, timeout: timeout) { $0.contains(text) }
    }

    /// Waits for the program's end (its output's end), killing it after `timeout`; its exit
    /// status (128 + signal when killed).
    public func finish(timeout: Duration = .seconds(30)) async -> Int32 {
        if await !output.ended(within: timeout) { child.send(SIGKILL) }
        return await Self.onItsOwnThread { [self] in waitForExitBlocking(timeout: .seconds(5)) }
    }

    /// Blocks until the program ended (killing it after `timeout`) and its output was read;
    /// its exit status. For the harness's own threads only.
    func waitForExitBlocking(timeout: Duration) -> Int32 {
        if !child.waitForExit(timeout: timeout) {
            child.send(SIGKILL)
            child.waitForExit(timeout: .seconds(5))
        }
        output.waitForEnd(timeout: .seconds(5))
        return child.terminationStatus
    }

    /// Blocks until a line satisfies `matches` (or the output ends, or `timeout` passes). For
    /// the harness's own threads only.
    func lineBlocking(timeout: Duration, where matches: (String) -> Bool) -> String? {
        output.waitForLine(timeout: timeout, where: matches)
    }

    /// Runs `body`, which blocks, on a thread of its own: neither a Swift concurrency thread
    /// nor one of Dispatch's (other tests need those) is held while it waits.
    static func onItsOwnThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// A connected pair, close-on-exec from birth: `read` for the child's end of standard
    /// input or this process's end of its output, `write` for the other.
    static func socketPair() throws(AvahiHostsUnavailable) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw .stepFailed("socketpair failed with errno \(errno)")
        }
        return (ends[0], ends[1])
    }
}
#endif
