import Foundation

/// Regenerates every file of `Vectors/` deterministically: fixed seeds for all randomness
/// (`InsecureDeterministicRandom`), a fixed clock, and canonical JSON (``JSONValue``), so two
/// runs give byte-identical files. `Vectors/README.md` documents the files; `Spec/` defines
/// every value in them.
///
/// Every generator cross-checks what it records (RFC answers, round trips, the Spec's key
/// derivation against the live sessions) and throws ``VectorGenerationError`` rather than
/// write inconsistent vectors.
public enum VectorGenerator {
    /// The vector files, by file name, in canonical JSON text.
    ///
    /// - Throws: ``VectorGenerationError`` when a self-check fails.
    public static func files() throws -> [(name: String, contents: String)] {
        [
            ("primitives.json", try PrimitiveVectors.make().canonicalText),
            ("qr-payload.json", try PayloadVectors.make().canonicalText),
            ("frames.json", try FrameVectors.make().canonicalText),
            ("plaintexts.json", try PlaintextVectors.make().canonicalText),
            ("short-code.json", try ShortCodeVectors.make().canonicalText),
            ("sessions.json", try SessionScenarios.make().canonicalText),
            ("registries.json", try RegistryVectors.make().canonicalText),
            ("transport.json", try TransportVectors.make().canonicalText),
            ("typed-code.json", try TypedCodeVectors.make().canonicalText),
            ("discovery.json", try DiscoveryVectors.make().canonicalText),
        ]
    }

    /// Writes every vector file into `directory` (created if missing), replacing existing files.
    ///
    /// - Throws: ``VectorGenerationError`` when a self-check fails, or a file-system error.
    public static func writeAll(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for file in try files() {
            try Data(file.contents.utf8).write(to: directory.appendingPathComponent(file.name), options: .atomic)
        }
    }
}
