import Foundation
import Testing
@testable import AccountHandoff

/// The fuzz build's shortcuts (secrets on the ordinary heap, memoised X25519 and session keys)
/// never reach a build an app links: the library built by this package has none compiled in,
/// and the package's manifest cannot define them for any configuration.
@Suite struct FuzzBuildShortcutsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func theLibraryIsBuiltWithoutAnyFuzzShortcut() {
        #expect(FuzzBuildShortcuts.compiledIn == [])
    }

    @Test func onlyTheFuzzScriptDefinesTheShortcuts() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(!manifest.contains("HANDOFF_FUZZ"))
        let script = try String(contentsOf: Self.root.appendingPathComponent("Scripts/fuzz.sh"), encoding: .utf8)
        for name in ["HANDOFF_FUZZ_ALLOCATOR", "HANDOFF_FUZZ_X25519_CACHE", "HANDOFF_FUZZ_KEY_CACHE"] {
            #expect(script.contains("-D\(name)"), "fuzz.sh defines \(name)")
        }
    }
}
