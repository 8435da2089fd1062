import AccountHandoff
@testable import AccountHandoffThunderbird
import Foundation
import Testing

/// A damaged profile file is diagnosed once, in no language: the error made from a real file
/// says what is wrong in whichever language its sentence is asked for, whatever the process's
/// language was when it was made. Each error case that carries a diagnosis is made here from a
/// file on disk, through the public API, and its sentence in each language holds the
/// diagnosis in that language and no piece of the other language's Thunderbird sentences.
@Suite struct DiagnosisLanguageTests {
    @Test func aBrokenPreferencesFile() async throws {
        let scratch = try ScratchProfile(keyDatabase: false, prefs: "user_pref(\"a\", 1);\nuser_pref(\"mail.server.server1.port\", 99999999999);\n")
        defer { scratch.remove() }
        let error = try await Self.checkError(scratch)
        #expect(error == .preferencesInvalid(path: scratch.directory.path + "/prefs.js", line: 2,
                                             problem: ThunderbirdDiagnosis("diagnosis.preferences.integerTooLarge", .text("99999999999"))))
        try Self.expectWhole(error, english: "(the integer 99999999999 is not a 32-bit integer)",
                             german: "(die ganze Zahl 99999999999 ist keine 32-Bit-Zahl)")
    }

    /// The JSON problem inside `logins.json` is a diagnosis within the diagnosis.
    @Test func brokenJSONInTheLoginsFile() async throws {
        let scratch = try ScratchProfile(keyDatabase: false)
        defer { scratch.remove() }
        try scratch.write("logins.json", #"{"nextId":1,"nextId":2,"logins":[],"version":3}"#)
        let error = try await Self.checkError(scratch)
        let nested = ThunderbirdDiagnosis("diagnosis.json.memberTwice", .text("nextId"))
        #expect(error == .loginsInvalid(path: scratch.directory.path + "/logins.json",
                                        problem: ThunderbirdDiagnosis("diagnosis.logins.notJSON", .number(20), .diagnosis(nested))))
        try Self.expectWhole(error, english: "(it is not JSON at byte 20: the member nextId appears twice)",
                             german: "(sie ist ab Byte 20 kein JSON: das Mitglied nextId kommt zweimal vor)")
    }

    @Test func aBrokenProfileList() async throws {
        let root = try ProfileListTests.root(profiles: "[Profile0]\nName=a\nName=b\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let error = try await #require(throws: ThunderbirdProfileError.self) { try await ThunderbirdProfileList.read(root: root) }
        #expect(error == .profileListInvalid(path: root.path + "/profiles.ini", line: 3,
                                             problem: ThunderbirdDiagnosis("diagnosis.ini.keyTwice", .text("Name"), .text("Profile0"))))
        try Self.expectWhole(error, english: "at line 3 (the key Name appears twice in [Profile0])",
                             german: "in Zeile 3 nicht gelesen werden (der Schlüssel Name kommt in [Profile0] zweimal vor)")
    }

    /// The INI problem inside `compatibility.ini` keeps its line, in words of the language.
    @Test func aBrokenCompatibilityFile() async throws {
        let scratch = try ScratchProfile(keyDatabase: false)
        defer { scratch.remove() }
        try scratch.write("compatibility.ini", "[Compatibility]\nLastVersion=153.0_20261120213735/20261120213735\n[Compatibility]\n")
        let error = try await Self.checkError(scratch)
        let nested = ThunderbirdDiagnosis("diagnosis.ini.sectionTwice", .text("Compatibility"))
        #expect(error == .compatibilityInvalid(path: scratch.directory.path,
                                               problem: ThunderbirdDiagnosis("diagnosis.compatibility.atLine", .number(3), .diagnosis(nested))))
        try Self.expectWhole(error, english: "(line 3: the section [Compatibility] appears twice)",
                             german: "(Zeile 3: der Abschnitt [Compatibility] kommt zweimal vor)")
    }

    @Test func aBrokenImportJournal() async throws {
        let scratch = try ScratchProfile(keyDatabase: false)
        defer { scratch.remove() }
        let journal = scratch.directory.appendingPathComponent(ImportJournal.folderName, isDirectory: true)
        try FileManager.default.createDirectory(at: journal, withIntermediateDirectories: false)
        try Data((ImportJournal.header + "\nsaved prefs.js 9z\n").utf8).write(to: journal.appendingPathComponent(ImportJournal.manifestName))
        let error = try await Self.checkError(scratch)
        #expect(error == .journalInvalid(path: journal.path + "/" + ImportJournal.manifestName,
                                         problem: ThunderbirdDiagnosis("diagnosis.journal.modeNotOctal")))
        try Self.expectWhole(error, english: "(a mode is not octal)", german: "(ein Dateimodus ist nicht oktal)")
    }

    // MARK: Helpers

    /// The error with which checking the profile stops.
    static func checkError(_ scratch: ScratchProfile) async throws -> ThunderbirdProfileError {
        let importer = ThunderbirdImporter(profile: scratch.profile, validator: NoValidation())
        let error = try await #require(throws: ThunderbirdProfileError.self) { try await importer.check() }
        await importer.waitUntilReleased()
        return error
    }

    /// `error` in English holds `english` and no piece of a German Thunderbird sentence; in
    /// German it holds `german` and no piece of an English one; its description is the English.
    static func expectWhole(_ error: ThunderbirdProfileError, english: String, german: String,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let pieces = try CatalogPieces.thunderbird
        let inEnglish = error.sentence(in: .english), inGerman = error.sentence(in: .german)
        #expect(inEnglish.contains(english), "\(inEnglish)", sourceLocation: sourceLocation)
        #expect(inGerman.contains(german), "\(inGerman)", sourceLocation: sourceLocation)
        #expect(error.description == inEnglish, sourceLocation: sourceLocation)
        let englishInGerman = pieces.english.filter(inGerman.contains)
        let germanInEnglish = pieces.german.filter(inEnglish.contains)
        #expect(englishInGerman.isEmpty, "English in the German sentence: \(englishInGerman): \(inGerman)", sourceLocation: sourceLocation)
        #expect(germanInEnglish.isEmpty, "German in the English sentence: \(germanInEnglish): \(inEnglish)", sourceLocation: sourceLocation)
    }
}

/// The literal pieces of the Thunderbird module's catalog sentences, split at their
/// placeholders: those of each language that are words (eight characters or more, with a
/// space) and not also in the other language's sentence of the same key.
struct CatalogPieces {
    let english: [String]
    let german: [String]

    static var thunderbird: CatalogPieces {
        get throws {
            let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/AccountHandoffThunderbird/Resources/Localizable.xcstrings")
            let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            let strings = try #require(root["strings"] as? [String: [String: Any]])
            let placeholder = try NSRegularExpression(pattern: #"%(?:[1-9]\$)?(?:@|lld)"#)
            func pieces(_ sentence: String, notIn other: String) -> [String] {
                let marked = placeholder.stringByReplacingMatches(in: sentence, range: NSRange(sentence.startIndex..., in: sentence), withTemplate: "\u{1}")
                return marked.split(separator: "\u{1}").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { $0.count >= 8 && $0.contains(" ") && !other.contains($0) }
            }
            var english: [String] = [], german: [String] = []
            for entry in strings.values {
                let localizations = try #require(entry["localizations"] as? [String: [String: [String: String]]])
                let en = try #require(localizations["en"]?["stringUnit"]?["value"]), de = try #require(localizations["de"]?["stringUnit"]?["value"])
                english += pieces(en, notIn: de)
                german += pieces(de, notIn: en)
            }
            try #require(english.count > 100 && german.count > 100, "the catalog's pieces were not read")
            return CatalogPieces(english: english, german: german)
        }
    }
}
