import Foundation
import SpawnedChild

/// Finds system executables in the usual places and on `PATH`.
enum ExecutableSearch {
    static func find(_ name: String, preferred: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = preferred + path.split(separator: ":").map { "\($0)/\(name)" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments` (never a secret), discarding its output; the exit status.
    static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        guard case .success(let child) = SpawnedChild.spawn(executable, arguments) else { return -1 }
        child.waitForExit(timeout: .seconds(60))
        return child.terminationStatus
    }
}
