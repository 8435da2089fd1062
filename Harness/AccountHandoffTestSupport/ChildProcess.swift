#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

/// A one-way byte channel for a child's standard stream whose ends are closed on exec from the
/// moment they exist: a socket pair (Glibc's module has no `pipe2`).
///
/// Foundation's `Pipe` sets that flag only after creating the pipe, so a process another
/// thread starts in between inherits the ends and holds them open: closing a child's input
/// then never reaches it, and reading a child's output waits for an unrelated process (seen in
/// 14 of 300 children started while another thread made pipes). Tests start many processes at
/// once. Test support only.
package struct InheritanceSafePipe {
    /// The end this process reads from (or hands to a child as its standard input).
    package let fileHandleForReading: FileHandle
    /// The end this process writes to (or hands to a child as its standard output or error).
    package let fileHandleForWriting: FileHandle

    /// A new channel.
    package init() {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        precondition(socketpair(AF_UNIX, type, 0, &ends) == 0, "socketpair failed: \(errno)")
        #else
        precondition(socketpair(AF_UNIX, SOCK_STREAM, 0, &ends) == 0, "socketpair failed: \(errno)")
        var one: Int32 = 1
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)  // no SOCK_CLOEXEC on Darwin
            _ = setsockopt(end, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        #endif
        shutdown(ends[0], Int32(SHUT_WR))
        shutdown(ends[1], Int32(SHUT_RD))
        fileHandleForReading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        fileHandleForWriting = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }
}

/// Runs a program to its end for a test, with ``InheritanceSafePipe``s for all three streams.
/// Test support only.
package enum ChildProcess {
    /// How the program ended and what it wrote.
    package struct Result: Sendable {
        /// The exit status (or the signal's number when a signal ended it).
        package let status: Int32
        /// Everything written to standard output.
        package let stdout: Data
        /// Everything written to standard error.
        package let stderr: Data
    }

    /// Runs `executable` with `arguments`, feeding it `input` (then the end of input), and
    /// reads both output streams to their ends on their own threads, so no full buffer can
    /// stall the program. `environment` replaces this process's environment when given.
    package static func run(_ executable: URL, _ arguments: [String], input: Data = Data(),
                            environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let (stdin, stdout, stderr) = (InheritanceSafePipe(), InheritanceSafePipe(), InheritanceSafePipe())
        process.standardInput = stdin.fileHandleForReading
        process.standardOutput = stdout.fileHandleForWriting
        process.standardError = stderr.fileHandleForWriting
        try process.run()
        // The child has its copies; only this process's own ends stay open here.
        for childEnd in [stdin.fileHandleForReading, stdout.fileHandleForWriting, stderr.fileHandleForWriting] {
            try childEnd.close()
        }
        let errors = StreamReader(stderr.fileHandleForReading)
        let writer = Thread { Self.write(input, to: stdin.fileHandleForWriting) }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.finish()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: output, stderr: errorData)
    }

    /// Writes `data` and closes the channel; a program that exits without reading its input
    /// ends the write quietly (`MSG_NOSIGNAL`: no SIGPIPE for the test process).
    private static func write(_ data: Data, to handle: FileHandle) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
                #else
                let flags: Int32 = 0
                #endif
                let sent = BlockingCall.retryingInterrupted("send") { send(handle.fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset, flags) }
                guard sent > 0 else { break }
                offset += sent
            }
        }
        try? handle.close()
    }
}

/// Reads a stream to its end on a thread of its own.
private final class StreamReader: @unchecked Sendable {
    // Safety of @unchecked Sendable: `data` is written by the reader thread before `done` is
    // signalled and read only after waiting for it.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func finish() -> Data {
        done.wait()
        return data
    }
}
