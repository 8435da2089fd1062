import AccountHandoff
import AccountHandoffTestSupport
import Foundation
import TestProcesses
import Testing

/// Each `HandoffError` case is written once, in `Sources/AccountHandoff/Errors/HandoffError.def`
/// (Spec 7.2): `Scripts/generate-handoff-errors.py` writes `Kind`, `Code`, the members and the
/// layer topics from it. The committed Swift must be a regeneration, every key the definition
/// lists must be in the String Catalog in every language, and the sentences must look up only
/// the keys listed for their case.
@Suite(.startsProcesses) struct HandoffErrorDefinitionTests {
    /// One case as `generate-handoff-errors.py --list` prints it.
    struct DefinedCase: Decodable {
        let name: String
        let layer: String
        let keys: [String]
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs the generator of the repository at `root` with `arguments`.
    static func generator(_ arguments: [String], root: URL = repository) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                          [root.appendingPathComponent("Scripts/generate-handoff-errors.py").path] + arguments)
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
    }

    static func definedCases() throws -> [DefinedCase] {
        let listed = try generator(["--list"])
        try #require(listed.status == 0, "generate-handoff-errors.py --list failed: \(listed.stderr)")
        return try JSONDecoder().decode([DefinedCase].self, from: Data(listed.stdout.utf8))
    }

    @Test func committedSwiftIsARegenerationAndTheSentencesUseTheListedKeys() throws {
        let check = try Self.generator(["--check"])
        #expect(check.status == 0)
        #expect(check.stderr == "", "run Scripts/generate-handoff-errors.py and review the diff")
    }

    @Test func everyListedKeyIsInTheCatalogInEveryLanguage() throws {
        let catalog = try SentenceCatalog(contentsOf: Self.repository.appendingPathComponent("Sources/AccountHandoff/Resources/Localizable.xcstrings"))
        var problems: [String] = []
        var checked = 0
        for defined in try Self.definedCases() {
            for entry in defined.keys {
                let family = entry.hasSuffix(".*") ? String(entry.dropLast()) : nil
                let keys = catalog.sentences.keys.filter { family.map($0.hasPrefix) ?? ($0 == entry) }
                if keys.isEmpty { problems.append("\(defined.name): `\(entry)` is not in the catalog") }
                for key in keys {
                    for language in HandoffLanguage.allCases where catalog.sentences[key]?[language] == nil {
                        problems.append("\(defined.name): `\(key)` has no \(language.rawValue) sentence")
                    }
                    checked += 1
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(checked >= 60)
        #expect(HandoffLanguage.allCases.contains(.german))
    }

    /// The definition, the Spec's table and the test list of every kind name the same codes.
    @Test func theDefinitionHasTheSpecsCodesInFourLayers() throws {
        let cases = try Self.definedCases()
        let names = cases.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(Set(names) == Set(HandoffErrorSurfaceTests.everyKind.map(\.code.description)))
        #expect(Set(names) == Set(try HandoffErrorSurfaceTests.specIdentifiers().map { String($0.prefix { $0 != "." }) }))
        #expect(cases.map(\.layer).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
                == ["Parsing", "Peer", "Misuse", "Environment"])
    }

    /// The check fails, naming the file, when generated Swift was edited by hand, and names
    /// both sides when a sentence looks up another case's key.
    @Test func theCheckNamesAHandEditAndAKeyLookedUpForTheWrongCase() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-errors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        for folder in ["Scripts", "Sources/AccountHandoff"] {
            try FileManager.default.createDirectory(at: copy.appendingPathComponent(folder).deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.repository.appendingPathComponent(folder), to: copy.appendingPathComponent(folder))
        }
        #expect(try Self.generator(["--check"], root: copy).status == 0)

        let members = copy.appendingPathComponent("Sources/AccountHandoff/Errors/HandoffError+Members.swift")
        let original = try String(contentsOf: members, encoding: .utf8)
        try original.replacingOccurrences(of: "static let expired = HandoffError(.expired)", with: "static let expired = HandoffError(.expiryTooFar)")
            .write(to: members, atomically: true, encoding: .utf8)
        let handEdit = try Self.generator(["--check"], root: copy)
        #expect(handEdit.status == 1)
        #expect(handEdit.stderr == "Sources/AccountHandoff/Errors/HandoffError+Members.swift differs from a regeneration; run Scripts/generate-handoff-errors.py\n")
        try original.write(to: members, atomically: true, encoding: .utf8)

        let sentences = copy.appendingPathComponent("Sources/AccountHandoff/Words/HandoffError+Sentences.swift")
        try String(contentsOf: sentences, encoding: .utf8)
            .replacingOccurrences(of: #"sentence("error.wrongIntent""#, with: #"sentence("error.badMagic""#)
            .write(to: sentences, atomically: true, encoding: .utf8)
        let wrongKey = try Self.generator(["--check"], root: copy)
        #expect(wrongKey.status == 1)
        #expect(wrongKey.stderr == """
            wrongIntent: its sentence looks up `error.badMagic`, which HandoffError.def does not list for it
            wrongIntent: HandoffError.def lists `error.wrongIntent`, which its sentence never looks up

            """)
    }
}
