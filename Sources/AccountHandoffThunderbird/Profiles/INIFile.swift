/// A strict reader of the INI files Thunderbird keeps next to its profiles (`profiles.ini`,
/// `installs.ini`) and in them (`compatibility.ini`): `[Section]` headers, `key=value` lines,
/// blank lines and comments starting with `;` or `#`. Anything else, a key outside a section,
/// a repeated section or key, or text that is not UTF-8 is refused with its line number.
struct INIFile {
    /// The longest file read; Thunderbird's are a few hundred bytes.
    static let maximumByteCount = 1 << 20

    /// One `[name]` section with its keys in file order.
    struct Section {
        let name: String
        var entries: [(key: String, value: String)] = []

        /// The value of `key`, or `nil`.
        func value(_ key: String) -> String? { entries.first { $0.key == key }?.value }
    }

    /// Why a file was refused: the 1-based line and what is wrong there.
    struct Problem: Error, Hashable {
        let line: Int
        let reason: ThunderbirdDiagnosis
    }

    let sections: [Section]

    /// The section named `name`, or `nil`.
    func section(_ name: String) -> Section? { sections.first { $0.name == name } }

    /// Parses `bytes`.
    ///
    /// - Throws: ``Problem`` naming the first line that is not understood.
    static func parse(_ bytes: [UInt8]) throws(Problem) -> INIFile {
        guard bytes.count <= maximumByteCount else { throw Problem(line: 0, reason: ThunderbirdDiagnosis("diagnosis.file.tooLarge", .number(maximumByteCount))) }
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }  // a byte-order mark, as Windows editors write
        guard let decoded = String(validating: text, as: UTF8.self) else { throw Problem(line: 0, reason: ThunderbirdDiagnosis("diagnosis.file.notUTF8")) }
        var sections: [Section] = []
        var number = 0
        for rawLine in decoded.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty || trimmed.hasPrefix(";") || trimmed.hasPrefix("#") { continue }
            if trimmed.hasPrefix("[") {
                guard trimmed.hasSuffix("]"), trimmed.count > 2 else { throw Problem(line: number, reason: ThunderbirdDiagnosis("diagnosis.ini.headerNotClosed")) }
                let name = String(trimmed.dropFirst().dropLast())
                guard !sections.contains(where: { $0.name == name }) else { throw Problem(line: number, reason: ThunderbirdDiagnosis("diagnosis.ini.sectionTwice", .text(name))) }
                sections.append(Section(name: name))
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else { throw Problem(line: number, reason: ThunderbirdDiagnosis("diagnosis.ini.unknownLine")) }
            guard !sections.isEmpty else { throw Problem(line: number, reason: ThunderbirdDiagnosis("diagnosis.ini.keyBeforeSection")) }
            let key = String(trimmed[..<equals].trimmingSpaces)
            let value = String(trimmed[trimmed.index(after: equals)...].trimmingSpaces)
            guard !key.isEmpty else { throw Problem(line: number, reason: ThunderbirdDiagnosis("diagnosis.ini.noKey")) }
            guard sections[sections.count - 1].value(key) == nil else {
                throw Problem(line: number, reason: ThunderbirdDiagnosis("diagnosis.ini.keyTwice", .text(key), .text(sections[sections.count - 1].name)))
            }
            sections[sections.count - 1].entries.append((key, value))
        }
        return INIFile(sections: sections)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
