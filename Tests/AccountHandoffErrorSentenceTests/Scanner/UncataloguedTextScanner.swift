import Foundation

/// A string literal in a shipped module's source that reads as text for a person but is not
/// taken from the module's String Catalog.
struct UncataloguedText: Equatable, CustomStringConvertible {
    let path: String
    let line: Int
    let text: String

    var description: String { "\(path):\(line): \"\(text)\"" }
}

/// Finds string literals that read as English prose (``readsAsProse(_:)``) in Swift code.
/// Comments (DocC included) are not code, and catalog keys have no spaces, so neither is ever
/// found. What a literal is passed to is read from the code around it
/// (``SwiftCodeText``); the only literals let through are those for developers (see
/// ``developerCalls``), enum raw values and literals taken as bytes.
enum UncataloguedTextScanner {
    /// Calls whose message is for the developer whose program broke, never for the person
    /// using it: it is printed when the process stops on a programming error.
    static let developerCalls: Set<String> = ["precondition", "preconditionFailure", "fatalError", "assert", "assertionFailure"]

    /// The literals of `source` that read as prose and are neither a developer's message, an
    /// enum raw value nor bytes.
    static func findings(in source: String, path: String) -> [UncataloguedText] {
        let code = SwiftCodeText.code(of: source)
        return SwiftCodeText.literals(of: source).compactMap { literal in
            guard readsAsProse(literal.text) else { return nil }
            if let callee = enclosingCall(before: literal.offset, in: code), developerCalls.contains(callee) { return nil }
            if isRawValue(before: literal.offset, in: code) || isBytes(after: literal.offset, in: code) { return nil }
            return UncataloguedText(path: path, line: literal.line, text: literal.text)
        }
    }

    /// Whether `text` has a run of at least three words, two of them all lowercase, such as
    /// "could not be read" or "The relay ◊ cannot": English words for a person, whatever
    /// their capital or final mark. An interpolation counts as a word, so a sentence split
    /// around one is found; identifiers, paths, keys (`transport.closedByPeer`), formats and
    /// one- or two-word names are not prose.
    static func readsAsProse(_ text: String) -> Bool {
        var run = 0, lowercase = 0
        for token in text.split(whereSeparator: { $0.isWhitespace }) {
            let word = token.trimmingCharacters(in: CharacterSet(charactersIn: "([{\"'“‘,.;:!?)]}”’…-"))
            if word == SwiftStringLiteral.interpolation || word.range(of: #"^[A-Za-z][A-Za-z'’-]*$"#, options: .regularExpression) != nil {
                run += 1
                if word.range(of: #"^[a-z][a-z'’-]*$"#, options: .regularExpression) != nil { lowercase += 1 }
                if run >= 3 && lowercase >= 2 { return true }
            } else {
                run = 0
                lowercase = 0
            }
        }
        return false
    }

    /// The name of the call whose argument list holds `offset`, or nil at statement level.
    /// A closure argument before the literal (`precondition(list.contains { ... }, "...")`) is
    /// stepped over; an unclosed `{` means the literal is in a block, not an argument list.
    static func enclosingCall(before offset: Int, in code: [UInt8]) -> String? {
        var depth = 0, braces = 0
        var index = offset - 1
        while index >= 0 {
            switch code[index] {
            case UInt8(ascii: ")"), UInt8(ascii: "]"): depth += 1
            case UInt8(ascii: "("), UInt8(ascii: "["):
                if depth == 0 { return code[index] == UInt8(ascii: "(") ? identifier(endingBefore: index, in: code) : nil }
                depth -= 1
            case UInt8(ascii: "}"): braces += 1
            case UInt8(ascii: "{"):
                if braces == 0 { return nil }
                braces -= 1
            default: break
            }
            index -= 1
        }
        return nil
    }

    /// Whether the literal at `offset` is taken as bytes (`"AH4 typed code claim".utf8`): a
    /// key-derivation label or a protocol line (Spec), which no person reads.
    static func isBytes(after offset: Int, in code: [UInt8]) -> Bool {
        guard let end = literalEnd(from: offset, in: code) else { return false }
        return String(decoding: code[end..<min(end + 5, code.count)], as: UTF8.self) == ".utf8"
    }

    /// The offset just past the literal that starts at `offset` (its closing delimiter), read
    /// in the blanked code, where a literal's contents are spaces.
    private static func literalEnd(from offset: Int, in code: [UInt8]) -> Int? {
        var index = offset
        var hashes = 0
        while index < code.count && code[index] == UInt8(ascii: "#") { hashes += 1; index += 1 }
        let quotes = index + 2 < code.count && code[index + 1] == UInt8(ascii: "\"") && code[index + 2] == UInt8(ascii: "\"") ? 3 : 1
        index += quotes
        while index < code.count {
            if code[index] == UInt8(ascii: "\""), (0..<quotes).allSatisfy({ index + $0 < code.count && code[index + $0] == UInt8(ascii: "\"") }),
               (0..<hashes).allSatisfy({ index + quotes + $0 < code.count && code[index + quotes + $0] == UInt8(ascii: "#") }) {
                return index + quotes + hashes
            }
            index += 1
        }
        return nil
    }

    /// Whether the literal at `offset` is an enum case's raw value (`case busy = "device busy"`):
    /// a value the code compares and converts, which a sentence shows through the catalog.
    static func isRawValue(before offset: Int, in code: [UInt8]) -> Bool {
        var start = offset
        while start > 0 && code[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        let before = String(decoding: code[start..<offset], as: UTF8.self)
        return before.range(of: #"\bcase\s+\w+\s*=\s*$"#, options: .regularExpression) != nil
    }

    private static func identifier(endingBefore index: Int, in code: [UInt8]) -> String? {
        var end = index
        while end > 0 && code[end - 1] == UInt8(ascii: " ") { end -= 1 }
        var start = end
        while start > 0, let scalar = Unicode.Scalar(Int(code[start - 1])), scalar == "_" || scalar.properties.isAlphabetic
                || ("0"..."9").contains(scalar) { start -= 1 }
        return start < end ? String(decoding: code[start..<end], as: UTF8.self) : nil
    }
}
