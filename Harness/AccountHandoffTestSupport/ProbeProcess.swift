#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A probe executable a test runs (`import-crash-probe`, `thunderbird-import-probe`): started
/// with its arguments, its standard input written once and closed, its standard output and
/// error read together; run to its end, or killed with SIGKILL once it printed a marker (a
/// crash at exactly that step).
package struct ProbeProcess {
    /// The probe did not do what the test needed: it never printed the marker, or it ended
    /// otherwise than by the kill.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    private let name: String
    private let process: Process
    private let output: InheritanceSafePipe

    /// Starts `executable` with `arguments`, writes `input` to its standard input and closes it.
    ///
    /// - Parameter launcher: a program that runs the probe (`setpriv …`, `unshare …`): its path
    ///   and arguments, then the probe's path and `arguments`.
    package init(_ executable: URL, _ arguments: [String], input: String, launcher: [String] = []) throws {
        name = executable.lastPathComponent
        process = Process()
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(launcher.dropFirst()) + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        let standardInput = InheritanceSafePipe()
        output = InheritanceSafePipe()
        process.standardInput = standardInput.fileHandleForReading
        process.standardOutput = output.fileHandleForWriting
        process.standardError = output.fileHandleForWriting
        try process.run()
        try standardInput.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try? standardInput.fileHandleForWriting.close()
    }

    /// Waits for the probe's end (or `timeout`, which only a hung probe meets); what it printed.
    package func finish(timeout: Duration) -> String {
        let text = read(until: nil, timeout: timeout)
        process.waitUntilExit()
        return text
    }

    /// Waits until the probe printed the line `marker` (or `timeout` passed), then kills it
    /// with SIGKILL.
    ///
    /// - Throws: ``Failure`` when the marker never came or the probe ended otherwise.
    package func kill(at marker: String, timeout: Duration) throws {
        let text = read(until: marker + "\n", timeout: timeout)
        #if canImport(Glibc)
        Glibc.kill(process.processIdentifier, SIGKILL)
        #else
        Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
        process.waitUntilExit()
        guard text.hasSuffix(marker + "\n") else {
            throw Failure(description: "\(name) did not print \"\(marker)\"; it said \"\(text)\"")
        }
        guard process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL else {
            throw Failure(description: "\(name) ended by \(process.terminationReason) \(process.terminationStatus), not SIGKILL")
        }
    }

    /// What the probe printed until `marker` (or its end, or the deadline), read on a thread of
    /// its own while the caller waits.
    private func read(until marker: String?, timeout: Duration) -> String {
        let handle = output.fileHandleForReading
        let collected = CollectedOutput()
        let done = DispatchSemaphore(value: 0)
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                if collected.append(chunk, marker: marker) { break }
            }
            done.signal()
        }.start()
        _ = done.wait(timeout: .now() + .seconds(Int(timeout.components.seconds)))
        return collected.text
    }
}

/// The output read so far, shared by the reading thread and the waiting caller.
private final class CollectedOutput: @unchecked Sendable {
    // Safety of @unchecked Sendable: `data` is only touched under `lock`.
    private let lock = NSLock()
    private var data = Data()

    /// Appends; whether `marker` has now been seen.
    func append(_ chunk: Data, marker: String?) -> Bool {
        lock.withLock {
            data.append(chunk)
            guard let marker else { return false }
            return String(decoding: data, as: UTF8.self).contains(marker)
        }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
