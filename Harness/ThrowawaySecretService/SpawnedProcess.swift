#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SpawnedChild

/// A child process with exactly the environment it is given, standard input fed from a
/// string, standard output captured or sent to a log, and no other descriptor of this process
/// (Foundation's `Process` would pass the whole environment, including the person's session bus).
/// Started and reaped by ``SpawnedChild``.
final class SpawnedProcess: Sendable {
    private let child: SpawnedChild
    /// The read end of the child's standard output, when captured.
    let output: FileHandle?

    var pid: pid_t { child.pid }

    private init(child: SpawnedChild, output: FileHandle?) {
        self.child = child
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
        let logFile = SpawnedChild.Stream.file(log ?? "/dev/null")
        let started = SpawnedChild.spawn(executable, arguments, environment: environment, input: .descriptor(stdin.read),
                                         output: stdout.map { .descriptor($0.write) } ?? logFile, errors: logFile)
        close(stdin.read)
        if let stdout { close(stdout.write) }
        let child: SpawnedChild
        switch started {
        case .success(let spawned): child = spawned
        case .failure(let failure):
            close(stdin.write)
            if let stdout { close(stdout.read) }
            throw LaunchFailed(description: failure.description)
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
        return SpawnedProcess(child: child, output: stdout.map { FileHandle(fileDescriptor: $0.read, closeOnDealloc: true) })
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
    var isRunning: Bool { child.isRunning }

    /// The exit status (or 128 + signal), once it exited.
    var terminationStatus: Int32 { child.terminationStatus }

    /// Sends `signal` if the process has not been reaped.
    func send(_ signal: Int32) { child.send(signal) }

    /// Waits until the process exits or `timeout` passes; whether it exited.
    @discardableResult
    func waitForExit(timeout: Duration) -> Bool { child.waitForExit(timeout: timeout) }

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
