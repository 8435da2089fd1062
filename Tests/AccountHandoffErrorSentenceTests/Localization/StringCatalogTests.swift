import AccountHandoff
import Foundation
import Testing

/// Every key of every shipped String Catalog, enumerated from the files: both languages,
/// the same placeholders, no key the code does not use and no lookup the catalog lacks.
@Suite struct StringCatalogTests {
    static let languages = HandoffLanguage.allCases.map(\.rawValue)

    static func catalogs() throws -> (ShippedModules, [ShippedCatalog]) {
        let modules = try ShippedModules()
        return (modules, try ShippedCatalog.all(in: modules))
    }

    @Test func everyKeyHasEveryLanguageWithTheSamePlaceholders() throws {
        let (_, catalogs) = try Self.catalogs()
        #expect(catalogs.count >= 2, "no String Catalog found under Sources/*/Resources")
        var failures: [String] = []
        var placeholderCount = 0
        for catalog in catalogs {
            if catalog.sourceLanguage != "en" { failures.append("\(catalog.path): sourceLanguage is not en") }
            for (key, languages) in catalog.entries.sorted(by: { $0.key < $1.key }) {
                if Set(languages.keys) != Set(Self.languages) {
                    failures.append("\(catalog.module) \(key): languages \(languages.keys.sorted()), expected \(Self.languages)")
                }
                for language in Self.languages {
                    guard let unit = languages[language] else { continue }
                    if unit.state != "translated" { failures.append("\(catalog.module) \(key) [\(language)]: state \(unit.state)") }
                    if unit.value.trimmingCharacters(in: .whitespaces).isEmpty { failures.append("\(catalog.module) \(key) [\(language)]: empty") }
                }
                guard let english = languages["en"]?.value else { continue }
                guard let expected = ShippedCatalog.placeholders(of: english) else {
                    failures.append("\(catalog.module) \(key) [en]: a % that is no known placeholder: \(english)")
                    continue
                }
                placeholderCount += expected.count
                for (language, unit) in languages where language != "en" {
                    guard let actual = ShippedCatalog.placeholders(of: unit.value) else {
                        failures.append("\(catalog.module) \(key) [\(language)]: a % that is no known placeholder: \(unit.value)")
                        continue
                    }
                    if actual != expected {
                        failures.append("\(catalog.module) \(key) [\(language)]: placeholders \(actual), English has \(expected)")
                    }
                    if let problem = Self.endingProblem(english: english, translation: unit.value) {
                        failures.append("\(catalog.module) \(key) [\(language)]: \(problem): \(unit.value)")
                    }
                }
            }
        }
        let keyCount = catalogs.reduce(0) { $0 + $1.entries.count }
        print("String Catalogs: " + catalogs.map { "\($0.module) \($0.entries.count) keys" }.joined(separator: ", ")
              + "; \(keyCount) keys × \(Self.languages.count) languages, \(placeholderCount) placeholders per language checked.")
        #expect(failures.isEmpty, "\(failures.count) catalog problems:\n\(failures.joined(separator: "\n"))")
    }

    /// A translation ends like its English sentence: with a sentence-ending mark where English
    /// has one, and without one where English is a clause that goes inside another sentence
    /// or ends with a sentence put in at a placeholder.
    static func endingProblem(english: String, translation: String) -> String? {
        let marks: Set<Character> = [".", "!", "?"]
        func ending(_ text: String) -> String { text.last.map(marks.contains) == true ? "sentence-ending mark" : "clause or placeholder" }
        let expected = ending(english), actual = ending(translation)
        return expected == actual ? nil : "ends with a \(actual) where English ends with a \(expected)"
    }

    @Test func theLibrarysLoaderAcceptsEveryShippedCatalog() throws {
        let (modules, catalogs) = try Self.catalogs()
        for catalog in catalogs {
            let loaded = try SentenceCatalog(contentsOf: modules.root.appendingPathComponent(catalog.path))
            #expect(Set(loaded.sentences.keys) == Set(catalog.entries.keys), "\(catalog.module)")
        }
    }

    /// Each catalog ships as a copied resource of its module (Foundation on Linux compiles no
    /// catalogs), and the manifest declares English the default localization.
    @Test func everyCatalogIsACopiedResourceOfItsModule() throws {
        let (modules, catalogs) = try Self.catalogs()
        let manifest = try String(contentsOf: modules.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#"defaultLocalization: "en""#))
        for catalog in catalogs {
            let declaration = Self.targetDeclaration(of: catalog.module, in: manifest)
            #expect(declaration.contains(#"resources: [.copy("Resources/Localizable.xcstrings")]"#),
                    "\(catalog.module)'s target does not copy its catalog: \(declaration)")
        }
    }

    /// Types whose initialiser takes a catalog key as its first argument and looks it up only
    /// when the value is put into words (regular-expression alternatives).
    static let deferredLookups = ["ThunderbirdDiagnosis"]

    /// Key prefixes whose every key is read through a lookup, never from a table of keys.
    static let lookupOnlyPrefixes = ["diagnosis."]

    /// A Thunderbird diagnosis is put into words when a sentence is asked for, in the language
    /// asked for: no source of the module says one, or anything else, in the process's
    /// language when the error is made.
    @Test func noDiagnosisIsPutIntoWordsWhenItIsMade() throws {
        let (modules, _) = try Self.catalogs()
        let early = try NSRegularExpression(pattern: #"sentenceCatalog\.sentence\(\s*"diagnosis\.|in: \.current\)"#)
        var failures: [String] = []
        var files = 0
        for path in modules.swiftFiles(of: "AccountHandoffThunderbird") {
            files += 1
            let source = try String(contentsOf: modules.root.appendingPathComponent(path), encoding: .utf8)
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (number, line) in lines.enumerated() where early.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                failures.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(files > 20, "found only \(files) source files of AccountHandoffThunderbird")
        #expect(failures.isEmpty, "\(failures.count) diagnoses are put into words when made:\n\(failures.joined(separator: "\n"))")
    }

    /// The text of `.target(name: "<module>", ...)` in `manifest`, up to its closing parenthesis
    /// (a declaration may span lines); empty when there is none.
    static func targetDeclaration(of module: String, in manifest: String) -> String {
        guard let start = manifest.range(of: #"\.target\(\s*name:\s*"\#(module)""#, options: .regularExpression) else { return "" }
        var depth = 0
        for index in manifest[start.lowerBound...].indices {
            switch manifest[index] {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return String(manifest[start.lowerBound...index]) }
            default: continue
            }
        }
        return ""
    }

    /// Every key a module looks up is in its catalog, and every key of the catalog is used by
    /// its module's code. Keys are string literals: the first argument of
    /// `sentenceCatalog.sentence(`, of a deferred lookup that is put into words later
    /// (``deferredLookups``, such as `ThunderbirdDiagnosis("diagnosis.…")`), or a literal in a
    /// table of keys (`"errno.EPERM"`). A key with a prefix of ``lookupOnlyPrefixes`` must be
    /// the key of a lookup, not only a literal somewhere.
    @Test func everyLookupHasAKeyAndEveryKeyIsLookedUp() throws {
        let (modules, catalogs) = try Self.catalogs()
        let callee = (["sentenceCatalog\\.sentence"] + Self.deferredLookups).joined(separator: "|")
        let lookup = try NSRegularExpression(pattern: #"(?:\#(callee))\(\s*("([^"\\]*)"|[^"\s][^,)]*)"#)
        let literal = try NSRegularExpression(pattern: #""([A-Za-z]+\.[A-Za-z0-9_.]+)""#)
        var failures: [String] = []
        var lookupCount = 0
        var deferredCount = 0
        for module in modules.targets {
            let catalog = catalogs.first { $0.module == module }
            let keys = Set(catalog?.entries.keys.map { $0 } ?? [])
            let prefixes = Set(keys.compactMap { $0.split(separator: ".").first.map(String.init) })
            var used: Set<String> = []
            var lookedUp: Set<String> = []
            for path in modules.swiftFiles(of: module) {
                let source = try String(contentsOf: modules.root.appendingPathComponent(path), encoding: .utf8)
                let whole = NSRange(source.startIndex..., in: source)
                for match in lookup.matches(in: source, range: whole) {
                    lookupCount += 1
                    if let matched = Range(match.range, in: source), !source[matched].hasPrefix("sentenceCatalog") { deferredCount += 1 }
                    if let keyRange = Range(match.range(at: 2), in: source) {
                        let key = String(source[keyRange])
                        used.insert(key)
                        lookedUp.insert(key)
                        if !keys.contains(key) { failures.append("\(path): looks up \"\(key)\", which \(module)'s catalog lacks") }
                    } else {
                        // A key held in a variable: it must come from a table of literal keys
                        // in the same file, which the literal scan below checks.
                        let argument = Range(match.range(at: 1), in: source).map { String(source[$0]) } ?? "?"
                        if argument != "key" { failures.append("\(path): looks up a key that is not a literal: \(argument)") }
                    }
                }
                for match in literal.matches(in: source, range: whole) {
                    guard let range = Range(match.range(at: 1), in: source) else { continue }
                    let text = String(source[range])
                    guard let prefix = text.split(separator: ".").first.map(String.init), prefixes.contains(prefix) else { continue }
                    used.insert(text)
                    if !keys.contains(text) && text.last != "." {
                        failures.append("\(path): key literal \"\(text)\" is not in \(module)'s catalog")
                    }
                }
            }
            for key in keys.subtracting(used).sorted() { failures.append("\(module): key \(key) is never looked up") }
            for key in keys.intersection(used).subtracting(lookedUp).sorted()
            where Self.lookupOnlyPrefixes.contains(where: { key.hasPrefix($0) }) {
                failures.append("\(module): key \(key) is only a literal, never the key of a lookup")
            }
        }
        print("Catalog lookups in the sources: \(lookupCount), \(deferredCount) of them deferred.")
        #expect(lookupCount > 200, "the lookup scan found only \(lookupCount) calls; it no longer reads the sources")
        #expect(deferredCount > 70, "the scan found only \(deferredCount) deferred lookups; it no longer sees ThunderbirdDiagnosis(")
        #expect(failures.isEmpty, "\(failures.count) lookup problems:\n\(failures.joined(separator: "\n"))")
    }
}
