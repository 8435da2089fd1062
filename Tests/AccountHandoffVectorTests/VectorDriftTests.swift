import AccountHandoffVectors
import Foundation
import Testing

/// The committed `Vectors/` must be exactly what the generator produces (a drift check; Vectors/README.md).
@Suite struct VectorDriftTests {
    @Test func generatorIsDeterministic() throws {
        let first = try VectorGenerator.files()
        let second = try VectorGenerator.files()
        #expect(first.map(\.name) == VectorFiles.names)
        #expect(first.map(\.contents) == second.map(\.contents))
    }

    @Test func committedVectorsMatchARegeneration() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-vectors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        try VectorGenerator.writeAll(to: temporary)
        for name in VectorFiles.names {
            let regenerated = try Data(contentsOf: temporary.appendingPathComponent(name))
            let committed = try? Data(contentsOf: VectorFiles.directory.appendingPathComponent(name))
            #expect(committed == regenerated, "Vectors/\(name) differs from a regeneration; run Scripts/generate-vectors.sh and review the diff")
        }
        let committedNames = try FileManager.default.contentsOfDirectory(atPath: VectorFiles.directory.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(committedNames == VectorFiles.names.sorted())
    }

    @Test func vectorsStayUnderThreeMegabytes() throws {
        // The committed files equal a regeneration (above), so their size is the generator's.
        // The bound catches a runaway generator, not growth by design: a whole session, with
        // every key, transcript hash and frame, is about 11 kB, and both pairings (QR and typed)
        // carry their own.
        let total = try VectorFiles.names.reduce(0) { $0 + (try Data(contentsOf: VectorFiles.directory.appendingPathComponent($1))).count }
        #expect(total < 3_000_000)
    }

    /// Writes the committed vectors; runs only when asked (Scripts/generate-vectors.sh).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HANDOFF_REGENERATE_VECTORS"] == "1"))
    func regenerateCommittedVectors() throws {
        try VectorGenerator.writeAll(to: VectorFiles.directory)
        for name in VectorFiles.names {
            #expect(FileManager.default.fileExists(atPath: VectorFiles.directory.appendingPathComponent(name).path))
        }
    }
}
