/// Thunderbird's `prefs.js`, read strictly and written back line for line.
///
/// Thunderbird writes this file itself: comment lines (`//`), blank lines and one
/// `user_pref("name", value);` line per preference, where a value is a double-quoted string
/// (escapes `\\ \" \' \n \r \xHH \uHHHH`), a 32-bit integer or `true`/`false`. This reader
/// accepts exactly that and refuses anything else (another statement, a block comment, a value
/// it does not know, a preference set twice) with the line's number. Lines that are not
/// changed are written back byte for byte; new preferences are added at the end (Thunderbird
/// sorts the file the next time it saves it).
struct PreferencesFile {
    /// The largest file read.
    static let maximumByteCount = 32 << 20

    /// Why a file was refused: the 1-based line and what is wrong there.
    struct Problem: Error, Hashable {
        let line: Int
        let reason: ThunderbirdDiagnosis
    }

    private enum Line {
        /// A blank line or a comment, kept as it was.
        case verbatim(Substring)
        /// A preference; `text` is the line as read (or as written for a changed value).
        case preference(name: String, value: PreferenceValue, text: String)
    }

    private var lines: [Line]
    private var index: [String: Int]
    private let lineEnding: String
    private let endsWithLineEnding: Bool

    /// An empty file (a profile Thunderbird never started).
    init() {
        lines = []
        index = [:]
        lineEnding = "\n"
        endsWithLineEnding = true
    }

    /// Parses `bytes`.
    ///
    /// - Throws: ``Problem`` naming the first line that is not understood.
    init(parsing bytes: [UInt8]) throws(Problem) {
        guard bytes.count <= Self.maximumByteCount else { throw Problem(line: 0, reason: ThunderbirdDiagnosis("diagnosis.file.tooLarge", .number(Self.maximumByteCount))) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Problem(line: 0, reason: ThunderbirdDiagnosis("diagnosis.file.notUTF8")) }
        let usesCRLF = text.contains("\r\n")
        lineEnding = usesCRLF ? "\r\n" : "\n"
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        endsWithLineEnding = parts.last == ""
        if endsWithLineEnding { parts.removeLast() }
        lines = []
        index = [:]
        for (offset, rawPart) in parts.enumerated() {
            let number = offset + 1
            var part = rawPart
            if usesCRLF {
                guard part.hasSuffix("\r") else { throw Problem(line: number, reason: ThunderbirdDiagnosis("diagnosis.preferences.mixedLineEnds")) }
                part = part.dropLast()
            }
            let trimmed = part.trimmingSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("//") {
                lines.append(.verbatim(part))
                continue
            }
            var scanner = PreferenceLineScanner(line: trimmed, number: number)
            let (name, value) = try scanner.userPreference()
            guard index[name] == nil else { throw Problem(line: number, reason: ThunderbirdDiagnosis("diagnosis.preferences.setTwice", .text(name))) }
            index[name] = lines.count
            lines.append(.preference(name: name, value: value, text: String(part)))
        }
    }

    /// The value of `name`, or `nil`.
    subscript(name: String) -> PreferenceValue? {
        guard let position = index[name], case .preference(_, let value, _) = lines[position] else { return nil }
        return value
    }

    /// The 1-based line of `name` in the file as read (and as it will be written).
    func lineNumber(of name: String) -> Int? { index[name].map { $0 + 1 } }

    /// Every preference name that starts with `prefix`.
    func names(withPrefix prefix: String) -> [String] {
        index.keys.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Sets `name` to `value`: its line is rewritten when it exists, a line is added otherwise.
    mutating func set(_ name: String, _ value: PreferenceValue) {
        let text = "user_pref(\(PreferenceValue.string(name).literal), \(value.literal));"
        if let position = index[name] {
            if case .preference(_, let old, _) = lines[position], old == value { return }
            lines[position] = .preference(name: name, value: value, text: text)
        } else {
            index[name] = lines.count
            lines.append(.preference(name: name, value: value, text: text))
        }
    }

    /// Removes `name` if it is set.
    mutating func remove(_ name: String) {
        guard let position = index.removeValue(forKey: name) else { return }
        lines.remove(at: position)
        for (other, place) in index where place > position { index[other] = place - 1 }
    }

    /// The file's bytes.
    var bytes: [UInt8] {
        var text = lines.map { line -> String in
            switch line {
            case .verbatim(let text): String(text)
            case .preference(_, _, let text): text
            }
        }.joined(separator: lineEnding)
        if endsWithLineEnding, !lines.isEmpty { text += lineEnding }
        return Array(text.utf8)
    }
}

/// Reads one `user_pref("name", value);` statement.
private struct PreferenceLineScanner {
    let line: Substring
    let number: Int
    private var position: Substring.UnicodeScalarView.Index
    private let scalars: Substring.UnicodeScalarView

    init(line: Substring, number: Int) {
        self.line = line
        self.number = number
        self.scalars = line.unicodeScalars
        self.position = line.unicodeScalars.startIndex
    }

    mutating func userPreference() throws(PreferencesFile.Problem) -> (String, PreferenceValue) {
        try expect("user_pref", ThunderbirdDiagnosis("diagnosis.preferences.notAStatement"))
        skipSpaces()
        try expect("(", ThunderbirdDiagnosis("diagnosis.preferences.noOpeningParenthesis"))
        skipSpaces()
        guard peek == "\"" else { throw problem(ThunderbirdDiagnosis("diagnosis.preferences.nameNotQuoted")) }
        let name = try string()
        guard !name.isEmpty else { throw problem(ThunderbirdDiagnosis("diagnosis.preferences.nameEmpty")) }
        skipSpaces()
        try expect(",", ThunderbirdDiagnosis("diagnosis.preferences.noComma"))
        skipSpaces()
        let value = try value()
        skipSpaces()
        try expect(")", ThunderbirdDiagnosis("diagnosis.preferences.noClosingParenthesis"))
        skipSpaces()
        try expect(";", ThunderbirdDiagnosis("diagnosis.preferences.noSemicolon"))
        skipSpaces()
        guard position == scalars.endIndex else { throw problem(ThunderbirdDiagnosis("diagnosis.preferences.trailingText")) }
        return (name, value)
    }

    private var peek: Unicode.Scalar? { position < scalars.endIndex ? scalars[position] : nil }

    private mutating func next() -> Unicode.Scalar? {
        guard let scalar = peek else { return nil }
        position = scalars.index(after: position)
        return scalar
    }

    private mutating func skipSpaces() {
        while let scalar = peek, scalar == " " || scalar == "\t" { _ = next() }
    }

    private mutating func expect(_ word: String, _ reason: ThunderbirdDiagnosis) throws(PreferencesFile.Problem) {
        for expected in word.unicodeScalars {
            guard next() == expected else { throw problem(reason) }
        }
    }

    private func problem(_ reason: ThunderbirdDiagnosis) -> PreferencesFile.Problem {
        PreferencesFile.Problem(line: number, reason: reason)
    }

    private mutating func value() throws(PreferencesFile.Problem) -> PreferenceValue {
        let unknown = ThunderbirdDiagnosis("diagnosis.preferences.unknownValue")
        guard let first = peek else { throw problem(unknown) }
        switch first {
        case "\"": return .string(try string())
        case "t":
            try expect("true", unknown)
            return .boolean(true)
        case "f":
            try expect("false", unknown)
            return .boolean(false)
        case "-", "0"..."9": return .integer(try integer())
        default: throw problem(unknown)
        }
    }

    private mutating func integer() throws(PreferencesFile.Problem) -> Int32 {
        var digits = ""
        if peek == "-" { digits.unicodeScalars.append(next()!) }
        while let scalar = peek, ("0"..."9").contains(scalar) { digits.unicodeScalars.append(next()!) }
        guard digits != "-", let value = Int32(digits) else { throw problem(ThunderbirdDiagnosis("diagnosis.preferences.integerTooLarge", .text(String(digits)))) }
        return value
    }

    private mutating func string() throws(PreferencesFile.Problem) -> String {
        _ = next()  // the opening quote
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = next() else { throw problem(ThunderbirdDiagnosis("diagnosis.string.notClosed")) }
            switch scalar {
            case "\"": return String(text)
            case "\0": throw problem(ThunderbirdDiagnosis("diagnosis.preferences.nulCharacter"))
            case "\\":
                guard let escaped = next() else { throw problem(ThunderbirdDiagnosis("diagnosis.preferences.trailingBackslash")) }
                switch escaped {
                case "\\", "\"", "'": text.append(escaped)
                case "n": text.append("\n")
                case "r": text.append("\r")
                case "x": text.append(try hexadecimal(digits: 2))
                case "u":
                    let first = try hexadecimalValue(digits: 4)
                    if (0xD800...0xDBFF).contains(first) {
                        guard next() == "\\", next() == "u" else { throw problem(ThunderbirdDiagnosis("diagnosis.string.halfSurrogate")) }
                        let second = try hexadecimalValue(digits: 4)
                        guard (0xDC00...0xDFFF).contains(second),
                              let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) else {
                            throw problem(ThunderbirdDiagnosis("diagnosis.string.halfSurrogate"))
                        }
                        text.append(scalar)
                    } else {
                        guard first != 0, let scalar = Unicode.Scalar(first) else { throw problem(ThunderbirdDiagnosis("diagnosis.preferences.unicodeEscapeNotACharacter")) }
                        text.append(scalar)
                    }
                default: throw problem(ThunderbirdDiagnosis("diagnosis.preferences.unknownEscape", .text(String(escaped))))
                }
            default: text.append(scalar)
            }
        }
    }

    private mutating func hexadecimal(digits: Int) throws(PreferencesFile.Problem) -> Unicode.Scalar {
        let value = try hexadecimalValue(digits: digits)
        guard value != 0, let scalar = Unicode.Scalar(value) else { throw problem(ThunderbirdDiagnosis("diagnosis.preferences.hexEscapeNotACharacter")) }
        return scalar
    }

    private mutating func hexadecimalValue(digits: Int) throws(PreferencesFile.Problem) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let scalar = next(), scalar.isASCII, let digit = UInt32(String(scalar), radix: 16) else {
                throw problem(ThunderbirdDiagnosis("diagnosis.preferences.escapeNotHexadecimal"))
            }
            value = value << 4 | digit
        }
        return value
    }
}
