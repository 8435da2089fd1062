import Foundation

/// The executables that `swift build --build-tests` puts next to the test bundle: `handoff`
/// and the probes under `Harness/` that the tests run in processes of their own.
public enum BuiltExecutable {
    /// The executable `name`, found next to the test bundle (or in `.build/debug`).
    ///
    /// - Throws: ``Missing`` when it was not built.
    public static func url(named name: String) throws(Missing) -> URL {
        for directory in candidateDirectories {
            let executable = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: executable.path) { return executable }
        }
        throw Missing(name: name)
    }

    /// Where the build puts executables, most likely first: the test runner's folder, the
    /// bundle's folder, the bundle itself, then the package's `.build/debug`.
    public static var candidateDirectories: [URL] {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first { candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        return candidates
    }

    /// The package's folder (this file is `Harness/TestProcesses/BuiltExecutable.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// An executable that was not built.
    public struct Missing: Error, CustomStringConvertible {
        /// The executable's name.
        public let name: String

        public var description: String {
            "The \(name) executable was not found next to the tests; build it with 'swift build --build-tests'."
        }
    }
}
