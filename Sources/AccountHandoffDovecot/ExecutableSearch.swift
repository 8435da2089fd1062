import Foundation

/// Finds system executables in the usual places and on `PATH`.
enum ExecutableSearch {
    static func find(_ name: String, preferred: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = preferred + path.split(separator: ":").map { "\($0)/\(name)" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments` (never a secret), discarding its output; the exit status.
    static func run(_ executable: String, _ arguments: [String], in directory: URL) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
