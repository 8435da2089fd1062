import HandoffCLI
import AccountHandoffVectors
import Foundation

/// `handoff-dev vectors --out DIR`: regenerates every test-vector file deterministically
/// (fixed seeds, fixed clock); running it twice gives byte-identical files.
enum VectorsCommand {
    static let specification = CommandManual.vectors.specification

    static func run(_ arguments: [String], console: Console) throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        guard let out = parsed.value("--out") else {
            throw .usage("'handoff-dev vectors' needs --out DIR, the folder to write the vector files into.", command: "vectors")
        }
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try VectorGenerator.writeAll(to: directory)
        } catch {
            throw CLIError("The vectors could not be written to \(out): \(error.localizedDescription). Check that the folder is writable.",
                           exitCode: .failure)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".json") }.sorted()) ?? []
        console.line("Wrote \(names.count) vector files to \(out): \(names.joined(separator: ", "))")
        return .success
    }
}
