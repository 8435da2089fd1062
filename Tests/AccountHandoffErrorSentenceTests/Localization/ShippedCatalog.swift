import Foundation

/// One module's String Catalog as the test reads it: straight from the JSON file, with its
/// own placeholder reading, so that a fault in the library's loader cannot hide a fault in the
/// file.
struct ShippedCatalog {
    /// One placeholder: the argument position it takes (1-based) and its kind (`@` or `lld`).
    struct Placeholder: Hashable, Comparable {
        let position: Int
        let kind: String
        static func < (a: Placeholder, b: Placeholder) -> Bool { (a.position, a.kind) < (b.position, b.kind) }
    }

    let module: String
    let path: String
    /// Key -> language code -> (state, value).
    let entries: [String: [String: (state: String, value: String)]]
    let sourceLanguage: String?

    /// The catalogs of the shipped modules: every `Sources/<module>/Resources/Localizable.xcstrings`.
    static func all(in modules: ShippedModules) throws -> [ShippedCatalog] {
        try modules.targets.compactMap { module in
            let path = "Sources/\(module)/Resources/Localizable.xcstrings"
            let url = modules.root.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return try ShippedCatalog(module: module, path: path, url: url)
        }
    }

    init(module: String, path: String, url: URL) throws {
        self.module = module
        self.path = path
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        sourceLanguage = root["sourceLanguage"] as? String
        var entries: [String: [String: (state: String, value: String)]] = [:]
        for (key, entry) in root["strings"] as? [String: Any] ?? [:] {
            let localizations = (entry as? [String: Any])?["localizations"] as? [String: Any] ?? [:]
            var languages: [String: (state: String, value: String)] = [:]
            for (language, unit) in localizations {
                let stringUnit = (unit as? [String: Any])?["stringUnit"] as? [String: Any] ?? [:]
                languages[language] = (stringUnit["state"] as? String ?? "", stringUnit["value"] as? String ?? "")
            }
            entries[key] = languages
        }
        self.entries = entries
    }

    /// The placeholders of `text` by position, or nil when it has a `%` that is none of `%%`,
    /// `%@`, `%lld`, `%N$@`, `%N$lld`, or mixes sequential and positional ones.
    static func placeholders(of text: String) -> [Placeholder]? {
        let pattern = try! NSRegularExpression(pattern: #"%(%|(?:([1-9])\$)?(@|lld))"#)
        let whole = NSRange(text.startIndex..., in: text)
        var found: [Placeholder] = []
        var sequential = 0, positional = 0
        var covered = 0
        for match in pattern.matches(in: text, range: whole) {
            covered += match.range.length
            guard let kindRange = Range(match.range(at: 3), in: text) else { continue }  // %%
            if let positionRange = Range(match.range(at: 2), in: text) {
                positional += 1
                found.append(Placeholder(position: Int(text[positionRange])!, kind: String(text[kindRange])))
            } else {
                sequential += 1
                found.append(Placeholder(position: sequential, kind: String(text[kindRange])))
            }
        }
        let percentSigns = text.filter { $0 == "%" }.count
        let matchedPercents = pattern.matches(in: text, range: whole).reduce(0) { count, match in
            count + (Range(match.range(at: 3), in: text) == nil ? 2 : 1)
        }
        guard percentSigns == matchedPercents, !(sequential > 0 && positional > 0) else { return nil }
        return found.sorted()
    }
}
