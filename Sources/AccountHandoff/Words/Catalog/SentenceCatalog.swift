import Foundation

/// One module's sentences, read from its `Localizable.xcstrings` (an Xcode String Catalog,
/// shipped with `.copy` because Foundation on Linux does not compile catalogs). The loader is
/// strict: the source language is English; every key has a translated, non-empty sentence in
/// every ``HandoffLanguage``; each sentence's placeholders parse (``SentenceTemplate``) and
/// match the English ones in kind and count. Each module reads its catalog once per process
/// (a `static let`).
package struct SentenceCatalog: Sendable {
    /// The parsed sentences by key, then by language.
    package let sentences: [String: [HandoffLanguage: SentenceTemplate]]

    /// Reads the catalog at `url`.
    /// - Throws: ``SentenceCatalogError`` naming the first thing that is wrong.
    package init(contentsOf url: URL) throws(SentenceCatalogError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .unreadable(url.lastPathComponent) }
        try self.init(json: data)
    }

    /// Reads a catalog from its JSON text.
    /// - Throws: ``SentenceCatalogError`` naming the first thing that is wrong.
    package init(json data: Data) throws(SentenceCatalogError) {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw .malformed("$") }
        try Self.expectKeys(of: root, within: ["sourceLanguage", "strings", "version"], at: "$")
        guard root["sourceLanguage"] as? String == HandoffLanguage.english.rawValue else { throw .malformed("$.sourceLanguage") }
        guard root["version"] is String else { throw .malformed("$.version") }
        guard let strings = root["strings"] as? [String: Any] else { throw .malformed("$.strings") }
        var sentences: [String: [HandoffLanguage: SentenceTemplate]] = [:]
        for (key, entry) in strings {
            sentences[key] = try Self.sentences(of: key, entry: entry)
        }
        self.sentences = sentences
    }

    /// An empty catalog: every sentence is its key. What a module has when its catalog is
    /// missing from its resources, so the tests (not the person) see it.
    package static let empty = SentenceCatalog(sentences: [:])

    private init(sentences: [String: [HandoffLanguage: SentenceTemplate]]) { self.sentences = sentences }

    /// The catalog of `target`, or ``empty`` when it is missing or refused.
    ///
    /// On Apple platforms it is in `module()` (the target's `Bundle.module`). Elsewhere SwiftPM
    /// puts a target's resources in `<package>_<target>.resources` beside the executable,
    /// and its generated `Bundle.module` stops the process when they are missing (a `handoff`
    /// copied without them), so the folder is looked up there and `module` is not called:
    /// `AccountHandoff_<target>.resources`, or else the one folder of another package that
    /// builds these sources under its own name (the fuzzing package does).
    /// - Parameters:
    ///   - target: The target's name.
    ///   - module: The target's `Bundle.module`.
    package static func bundled(target: String, module: () -> Bundle) -> SentenceCatalog {
        #if canImport(Darwin)
        let bundle: Bundle? = module()
        #else
        let bundle = resourceFolder(of: target, beside: Bundle.main.bundleURL).flatMap(Bundle.init(url:))
        #endif
        guard let url = bundle?.url(forResource: "Localizable", withExtension: "xcstrings") else { return .empty }
        return (try? SentenceCatalog(contentsOf: url)) ?? .empty
    }

    /// The resource folder of `target` in `directory`: `AccountHandoff_<target>.resources`, or
    /// else the only folder named `<package>_<target>.resources`.
    package static func resourceFolder(of target: String, beside directory: URL) -> URL? {
        let own = directory.appendingPathComponent("AccountHandoff_\(target).resources")
        if FileManager.default.fileExists(atPath: own.path) { return own }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let others = names.filter { $0.hasSuffix("_\(target).resources") }
        return others.count == 1 ? directory.appendingPathComponent(others[0]) : nil
    }

    /// The sentence of `key` in `language` with `arguments` in its placeholders. Falls back to
    /// English when the arguments do not fit the translation, and to the key itself when the
    /// catalog has no such key (the tests make sure neither happens).
    /// - Parameters:
    ///   - key: The catalog key, a string literal at the call site (the tests scan for them).
    ///   - arguments: The values for the placeholders, first argument first.
    ///   - language: The language to say it in.
    package func sentence(_ key: String, _ arguments: SentenceArgument..., in language: HandoffLanguage) -> String {
        sentence(key, arguments: arguments, in: language)
    }

    /// ``sentence(_:_:in:)`` with the arguments as an array.
    package func sentence(_ key: String, arguments: [SentenceArgument], in language: HandoffLanguage) -> String {
        guard let languages = sentences[key] else { return key }
        return languages[language]?.render(arguments) ?? languages[.english]?.render(arguments) ?? key
    }

    private static func sentences(of key: String, entry: Any) throws(SentenceCatalogError) -> [HandoffLanguage: SentenceTemplate] {
        let path = "$.strings[\(key)]"
        guard let entry = entry as? [String: Any] else { throw .malformed(path) }
        try expectKeys(of: entry, within: ["comment", "extractionState", "localizations"], at: path)
        guard let localizations = entry["localizations"] as? [String: Any] else { throw .malformed(path + ".localizations") }
        var templates: [HandoffLanguage: SentenceTemplate] = [:]
        for (code, unit) in localizations {
            let unitPath = "\(path).localizations.\(code)"
            guard let language = HandoffLanguage(rawValue: code),
                  let unit = unit as? [String: Any], unit.count == 1,
                  let stringUnit = unit["stringUnit"] as? [String: Any] else { throw .malformed(unitPath) }
            try expectKeys(of: stringUnit, within: ["state", "value"], at: unitPath + ".stringUnit")
            guard stringUnit["state"] as? String == "translated" else { throw .missingTranslation(key: key, language: code) }
            guard let value = stringUnit["value"] as? String, !value.isEmpty else { throw .missingTranslation(key: key, language: code) }
            templates[language] = try SentenceTemplate(value, key: key, language: code)
        }
        for language in HandoffLanguage.allCases where templates[language] == nil {
            throw .missingTranslation(key: key, language: language.rawValue)
        }
        let english = templates[.english]?.signature
        for (language, template) in templates where template.signature != english {
            throw .placeholderMismatch(key: key, language: language.rawValue)
        }
        return templates
    }

    private static func expectKeys(of object: [String: Any], within allowed: Set<String>, at path: String) throws(SentenceCatalogError) {
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) { throw .malformed("\(path).\(unknown)") }
    }
}
