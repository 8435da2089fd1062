import Foundation
import Testing

/// The fuzz build's shortcuts (memoised X25519 and session keys, Spec 8.5) never reach a build
/// an app links: their code is part of the `Fuzz/` package alone, the library's sources only
/// name them under flags the package's manifest never defines, and only the fuzz scripts do.
@Suite struct FuzzShortcutsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let flags = ["HANDOFF_FUZZ_X25519_CACHE", "HANDOFF_FUZZ_KEY_CACHE"]

    @Test func onlyTheFuzzScriptsDefineTheShortcuts() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(!manifest.contains("HANDOFF_FUZZ"))
        for script in ["Scripts/fuzz.sh", "Scripts/fuzz-coverage.sh"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(script), encoding: .utf8)
            for flag in Self.flags { #expect(text.contains("-D\(flag)"), "\(script) defines \(flag)") }
        }
    }

    /// The library's own sources hold no shortcut's code: the caches are defined in
    /// `Fuzz/Sources/AccountHandoff/FuzzShortcuts` only, and every mention in the library is
    /// inside an `#if` of one of the flags.
    @Test func theLibraryHoldsNoShortcutCode() throws {
        let sources = Self.root.appendingPathComponent("Sources/AccountHandoff")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 50)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("enum Fuzz") && !text.contains("struct Fuzz"), "\(file.lastPathComponent) defines fuzz code")
            var open: [Bool] = []  // per #if: whether it is a fuzz flag's
            for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if line.hasPrefix("#if ") { open.append(Self.flags.contains { line.contains($0) }) }
                if line.hasPrefix("#endif") { _ = open.popLast() }
                if line.contains("Fuzz"), !line.hasPrefix("#if"), !line.hasPrefix("//") {
                    #expect(open.contains(true), "\(file.lastPathComponent) names a shortcut outside its flag: \(line)")
                }
            }
        }
        let shortcuts = Self.root.appendingPathComponent("Fuzz/Sources/AccountHandoff/FuzzShortcuts")
        let defined = try FileManager.default.contentsOfDirectory(atPath: shortcuts.path).sorted()
        #expect(defined == ["FuzzCacheKey.swift", "FuzzSessionKeysCache.swift", "FuzzX25519Cache.swift"])
    }
}
