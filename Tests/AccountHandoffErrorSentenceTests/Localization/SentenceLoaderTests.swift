import AccountHandoff
import Foundation
import Testing

/// The loader refuses what an Xcode String Catalog of the library's sentences must not hold.
@Suite struct SentenceLoaderTests {
    static func catalog(_ strings: String, source: String = "en") -> String {
        #"{"sourceLanguage":"\#(source)","version":"1.0","strings":{\#(strings)}}"#
    }

    static func entry(_ key: String, en: String, de: String?, deState: String = "translated") -> String {
        let german = de.map { #","de":{"stringUnit":{"state":"\#(deState)","value":"\#($0)"}}"# } ?? ""
        return #""\#(key)":{"extractionState":"manual","localizations":{"en":{"stringUnit":{"state":"translated","value":"\#(en)"}}\#(german)}}"#
    }

    static func load(_ json: String) throws(SentenceCatalogError) -> SentenceCatalog { try SentenceCatalog(json: Data(json.utf8)) }

    @Test func aGoodCatalogRendersTypedAndReorderedArguments() throws {
        let catalog = try Self.load(Self.catalog(Self.entry("k", en: "%@ has %lld bytes.", de: "%2$lld Byte hat %1$@.")))
        #expect(catalog.sentence("k", .text("a.txt"), .integer(3), in: .english) == "a.txt has 3 bytes.")
        #expect(catalog.sentence("k", .text("a.txt"), .integer(3), in: .german) == "3 Byte hat a.txt.")
        #expect(catalog.sentence("missing", in: .german) == "missing")
        // Arguments of the wrong kind fall back to nothing but the key: never a half sentence.
        #expect(catalog.sentence("k", .integer(3), .text("a.txt"), in: .german) == "k")
    }

    @Test func theLoaderRefusesWhatDoesNotBelong() {
        #expect(throws: SentenceCatalogError.missingTranslation(key: "k", language: "de")) {
            try Self.load(Self.catalog(Self.entry("k", en: "Hello.", de: nil)))
        }
        #expect(throws: SentenceCatalogError.missingTranslation(key: "k", language: "de")) {
            try Self.load(Self.catalog(Self.entry("k", en: "Hello.", de: "")))
        }
        #expect(throws: SentenceCatalogError.missingTranslation(key: "k", language: "de")) {
            try Self.load(Self.catalog(Self.entry("k", en: "Hello.", de: "Hallo.", deState: "needs_review")))
        }
        #expect(throws: SentenceCatalogError.placeholderMismatch(key: "k", language: "de")) {
            try Self.load(Self.catalog(Self.entry("k", en: "%@ has %lld bytes.", de: "%@ hat %@ Byte.")))
        }
        #expect(throws: SentenceCatalogError.placeholderMismatch(key: "k", language: "de")) {
            try Self.load(Self.catalog(Self.entry("k", en: "%@ and %@.", de: "%@.")))
        }
        #expect(throws: SentenceCatalogError.invalidPlaceholder(key: "k", language: "de")) {
            try Self.load(Self.catalog(Self.entry("k", en: "%@.", de: "%s.")))
        }
        #expect(throws: SentenceCatalogError.invalidPlaceholder(key: "k", language: "de")) {
            try Self.load(Self.catalog(Self.entry("k", en: "%@ %@.", de: "%1$@ %@.")))
        }
        #expect(throws: SentenceCatalogError.invalidPlaceholder(key: "k", language: "de")) {
            try Self.load(Self.catalog(Self.entry("k", en: "%@ %@.", de: "%2$@.")))
        }
        #expect(throws: SentenceCatalogError.malformed("$.sourceLanguage")) {
            try Self.load(Self.catalog(Self.entry("k", en: "Hello.", de: "Hallo."), source: "de"))
        }
        #expect(throws: SentenceCatalogError.malformed("$")) { try Self.load("[]") }
        #expect(throws: SentenceCatalogError.malformed("$.strings[k].localizations.fr")) {
            try Self.load(Self.catalog(#""k":{"localizations":{"fr":{"stringUnit":{"state":"translated","value":"Salut."}}}}"#))
        }
    }

    /// Beside an executable on Linux: the library's own folder first, else the one folder of a
    /// package that builds the sources under its own name, never a guess between two.
    @Test func theResourceFolderIsFoundUnderThePackagesNameOrNotAtAll() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resources-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        func folder(_ name: String) throws { try FileManager.default.createDirectory(at: directory.appendingPathComponent(name), withIntermediateDirectories: true) }
        func found(_ target: String) -> String? { SentenceCatalog.resourceFolder(of: target, beside: directory)?.lastPathComponent }
        try folder("AccountHandoffFuzz_AccountHandoff.resources")
        try folder("AccountHandoffFuzz_AccountHandoffImport.resources")
        #expect(found("AccountHandoff") == "AccountHandoffFuzz_AccountHandoff.resources")
        #expect(found("AccountHandoffImport") == "AccountHandoffFuzz_AccountHandoffImport.resources")
        #expect(found("AccountHandoffQR") == nil)
        try folder("Other_AccountHandoffImport.resources")
        #expect(found("AccountHandoffImport") == nil, "two packages' folders: neither is taken")
        try folder("AccountHandoff_AccountHandoffImport.resources")
        #expect(found("AccountHandoffImport") == "AccountHandoff_AccountHandoffImport.resources")
    }
}
