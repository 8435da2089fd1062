#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoffImportTestSupport
import AccountHandoffTestSupport
import Foundation
import TestProcesses

/// Runs the `import-crash-probe` executable until it reports the named point, then kills it
/// with SIGKILL: a crash at exactly that step of the transaction.
enum CrashProbe {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts an import of `scenario` into `run.directory` and SIGKILLs it at `point`.
    static func killImport(_ run: ScenarioRun, at point: TransactionPoint) throws {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = ["--store", run.directory.path, "--scenario", run.scenario.rawValue, "--stop-at", point.rawValue,
                             "--host", run.server.host, "--port", String(run.server.tlsPort), "--user", SharedDovecot.user,
                             "--ca", run.server.caFile.path] + run.probeArguments
        let input = InheritanceSafePipe()
        let output = InheritanceSafePipe()
        process.standardInput = input.fileHandleForReading
        process.standardOutput = output.fileHandleForWriting
        process.standardError = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        let password = run.scenario == .validationFailure ? "not-the-password" : SharedDovecot.password
        input.fileHandleForWriting.write(Data((password + "\n").utf8))
        try? input.fileHandleForWriting.close()

        let line = readLine(output.fileHandleForReading, timeout: .seconds(30))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        guard line == "STOPPED \(point.rawValue)" else {
            throw Failure(description: "import-crash-probe did not stop at \(point.rawValue); it said \(line.map { "\"\($0)\"" } ?? "nothing")")
        }
        guard process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL else {
            throw Failure(description: "import-crash-probe ended by \(process.terminationReason) \(process.terminationStatus), not SIGKILL")
        }
    }

    /// The first line the probe prints, or `nil` if none arrives in time.
    private static func readLine(_ handle: FileHandle, timeout: Duration) -> String? {
        let reader = LineReader(handle)
        Thread { reader.read() }.start()
        return reader.wait(timeout: timeout)
    }

    /// The probe built next to the test bundle by `swift build --build-tests`.
    static func binary(named name: String = "import-crash-probe") throws -> URL {
        try BuiltExecutable.url(named: name)
    }
}

/// Reads one line on a background thread; the test waits for it with a deadline.
private final class LineReader: @unchecked Sendable {
    // Safety of @unchecked Sendable: `line` is written once under `lock` before `done` is signalled.
    private let handle: FileHandle
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var line: String?

    init(_ handle: FileHandle) { self.handle = handle }

    func read() {
        var data = Data()
        while !data.contains(10) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        let text = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
        lock.lock()
        line = text
        lock.unlock()
        done.signal()
    }

    func wait(timeout: Duration) -> String? {
        let (seconds, _) = timeout.components
        guard done.wait(timeout: .now() + .seconds(Int(seconds))) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return line
    }
}
