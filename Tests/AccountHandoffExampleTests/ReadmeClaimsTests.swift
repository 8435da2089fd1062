import Foundation
import Testing

/// Every test suite that README.md, Spec/security.md, the DocC articles or CONTRIBUTING.md
/// name beside a claim exists: a claim whose test was renamed or removed would otherwise point
/// at nothing.
@Suite struct ReadmeClaimsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["README.md", "Spec/security.md", "CONTRIBUTING.md",
                      "Sources/AccountHandoff/AccountHandoff.docc/GettingStarted.md",
                      "Sources/AccountHandoff/AccountHandoff.docc/StateMachines.md",
                      "Sources/AccountHandoff/AccountHandoff.docc/Security.md"])
    func everyNamedSuiteExists(document: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let named = Set(text.matches(of: /`([A-Z][A-Za-z0-9]*Tests)`/).map { String($0.output.1) })
        #expect(!named.isEmpty, "\(document) names no test")
        let suites = try Self.suiteNames()
        for name in named.sorted() {
            #expect(suites.contains(name), "\(document) names \(name), which is not a test suite")
        }
    }

    /// `struct|class|enum Name` declarations under Tests/.
    static func suiteNames() throws -> Set<String> {
        var names: Set<String> = []
        let tests = root.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let source = try String(contentsOf: file, encoding: .utf8)
            for match in source.matches(of: /(?:struct|class|enum)\s+([A-Z][A-Za-z0-9]*Tests)\b/) {
                names.insert(String(match.output.1))
            }
        }
        return names
    }
}
