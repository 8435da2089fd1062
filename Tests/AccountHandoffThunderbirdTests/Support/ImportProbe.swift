#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoffTestSupport
@testable import AccountHandoffThunderbird
import Foundation
import TestProcesses

/// Runs the `thunderbird-import-probe` executable: one profile operation in a process of its
/// own, optionally behind a launcher (`setpriv` without file-permission override, `unshare`
/// with a small file system), optionally killed with SIGKILL at a named import step.
enum ImportProbe {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the probe to its end; its standard output.
    static func run(_ arguments: [String], input: String, launcher: [String] = [], timeout: Duration = .seconds(60)) throws -> String {
        let (process, output) = try start(arguments, input: input, launcher: launcher)
        let text = read(output.fileHandleForReading, until: nil, timeout: timeout)
        process.waitUntilExit()
        return text
    }

    /// Runs `executable` (which runs the probe itself) to its end; its standard output.
    static func command(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(60)) throws -> String {
        let (process, output) = try start(arguments, input: "", launcher: [executable], appendingProbe: false)
        let text = read(output.fileHandleForReading, until: nil, timeout: timeout)
        process.waitUntilExit()
        return text
    }

    /// Runs an import until it reports `step`, then kills it with SIGKILL.
    static func kill(_ arguments: [String], input: String, at step: ImportStep) throws {
        let (process, output) = try start(arguments + ["--stop-at", step.rawValue], input: input, launcher: [])
        let text = read(output.fileHandleForReading, until: "STOPPED \(step.rawValue)\n", timeout: .seconds(60))
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        guard text.hasSuffix("STOPPED \(step.rawValue)\n") else {
            throw Failure(description: "the probe did not stop at \(step.rawValue); it said \"\(text)\"")
        }
        guard process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL else {
            throw Failure(description: "the probe ended by \(process.terminationReason) \(process.terminationStatus), not SIGKILL")
        }
    }

    /// The probe built next to the test bundle by `swift build --build-tests`.
    static func binary() throws -> URL {
        try BuiltExecutable.url(named: "thunderbird-import-probe")
    }

    private static func start(_ arguments: [String], input: String, launcher: [String],
                              appendingProbe: Bool = true) throws -> (Process, InheritanceSafePipe) {
        let process = Process()
        let probe = try binary()
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(launcher.dropFirst()) + (appendingProbe ? [probe.path] : []) + arguments
        } else {
            process.executableURL = probe
            process.arguments = arguments
        }
        let stdin = InheritanceSafePipe()
        let output = InheritanceSafePipe()
        process.standardInput = stdin.fileHandleForReading
        process.standardOutput = output.fileHandleForWriting
        process.standardError = output.fileHandleForWriting
        try process.run()
        try stdin.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        return (process, output)
    }

    /// What the probe printed until `marker` (or its end, or the deadline).
    private static func read(_ handle: FileHandle, until marker: String?, timeout: Duration) -> String {
        let collected = Collected()
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

private final class Collected: @unchecked Sendable {
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
