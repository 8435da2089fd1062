/// Swift source with comments and the insides of string literals (interpolations included)
/// blanked out, so braces, `case` and type keywords are found only where they are code.
/// Newlines are kept, so offsets keep their line numbers.
enum SwiftCodeText {
    /// The code of `source`, as bytes of the same length.
    static func code(of source: String) -> [UInt8] {
        var blanker = Blanker(bytes: Array(source.utf8))
        blanker.code(untilClosingParenthesis: false)
        return blanker.output
    }

    /// The string literals of `source` (outside comments), in the order they close; a literal
    /// inside an interpolation is one of its own.
    static func literals(of source: String) -> [SwiftStringLiteral] {
        var blanker = Blanker(bytes: Array(source.utf8))
        blanker.code(untilClosingParenthesis: false)
        return blanker.literals
    }
}

/// One string literal of a Swift source: where it starts and what it says.
struct SwiftStringLiteral: Equatable {
    /// What stands in the text for each interpolation (`\(...)`).
    static let interpolation = "◊"

    /// The byte offset of its first delimiter (`#` or `"`) in the source.
    let offset: Int
    /// Its line, 1-based.
    let line: Int
    /// Its contents, escapes resolved roughly (`\n` as a space) and each interpolation as
    /// ``interpolation``.
    let text: String
}

private struct Blanker {
    let bytes: [UInt8]
    var output: [UInt8]
    var index = 0
    var literals: [SwiftStringLiteral] = []
    /// The line of the last literal recorded, and its offset: the next one counts newlines from
    /// there when it starts later (counting from the file's start each time was quadratic).
    private var counted = (offset: 0, line: 1)

    init(bytes: [UInt8]) {
        self.bytes = bytes
        output = bytes
    }

    private static let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/")
    private static let star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n")
    private static let open = UInt8(ascii: "("), close = UInt8(ascii: ")")

    private func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func blank(_ range: Range<Int>) {
        for offset in range where offset < output.count && output[offset] != Self.newline { output[offset] = UInt8(ascii: " ") }
    }

    /// Code up to the end, or up to (not past) the `)` that closes an interpolation.
    mutating func code(untilClosingParenthesis: Bool) {
        var depth = 0
        while index < bytes.count {
            let current = bytes[index]
            if current == Self.slash && byte(at: index + 1) == Self.slash {
                lineComment()
            } else if current == Self.slash && byte(at: index + 1) == Self.star {
                blockComment()
            } else if let hashes = stringStart() {
                string(hashes: hashes)
            } else {
                if untilClosingParenthesis && current == Self.open { depth += 1 }
                if untilClosingParenthesis && current == Self.close {
                    if depth == 0 { return }
                    depth -= 1
                }
                index += 1
            }
        }
    }

    /// The number of `#` before a string's opening quote, if a string starts here.
    private func stringStart() -> Int? {
        var offset = index
        while byte(at: offset) == Self.hash { offset += 1 }
        return byte(at: offset) == Self.quote ? offset - index : nil
    }

    private mutating func lineComment() {
        let start = index
        while index < bytes.count && bytes[index] != Self.newline { index += 1 }
        blank(start..<index)
    }

    /// Swift block comments nest.
    private mutating func blockComment() {
        let start = index
        var depth = 0
        while index < bytes.count {
            if bytes[index] == Self.slash && byte(at: index + 1) == Self.star {
                depth += 1
                index += 2
            } else if bytes[index] == Self.star && byte(at: index + 1) == Self.slash {
                depth -= 1
                index += 2
                if depth == 0 { break }
            } else {
                index += 1
            }
        }
        blank(start..<index)
    }

    /// A string literal (single-line, multi-line or raw): its contents become blanks; its
    /// delimiters stay. Recorded in ``literals``.
    private mutating func string(hashes: Int) {
        let start = index
        index += hashes
        let multiline = byte(at: index + 1) == Self.quote && byte(at: index + 2) == Self.quote
        let quotes = multiline ? 3 : 1
        index += quotes
        let contentStart = index
        var text: [UInt8] = []
        while index < bytes.count {
            if bytes[index] == Self.backslash && (0..<hashes).allSatisfy({ byte(at: index + 1 + $0) == Self.hash }) {
                let afterEscape = index + 1 + hashes
                if byte(at: afterEscape) == Self.open {
                    index = afterEscape + 1
                    code(untilClosingParenthesis: true)
                    index += 1
                    text += Array(SwiftStringLiteral.interpolation.utf8)
                } else {
                    let escaped = byte(at: afterEscape) ?? Self.backslash
                    text.append([UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r")].contains(escaped) ? UInt8(ascii: " ") : escaped)
                    index = afterEscape + 1
                }
                continue
            }
            if bytes[index] == Self.quote && (0..<quotes).allSatisfy({ byte(at: index + $0) == Self.quote })
                && (0..<hashes).allSatisfy({ byte(at: index + quotes + $0) == Self.hash }) {
                blank(contentStart..<index)
                record(start: start, text: text)
                index += quotes + hashes
                return
            }
            text.append(bytes[index])
            index += 1
        }
        blank(contentStart..<index)
        record(start: start, text: text)
    }

    private mutating func record(start: Int, text: [UInt8]) {
        let from = start >= counted.offset ? counted : (offset: 0, line: 1)
        var line = from.line
        for offset in from.offset..<start where bytes[offset] == Self.newline { line += 1 }
        counted = (start, line)
        literals.append(SwiftStringLiteral(offset: start, line: line, text: String(decoding: text, as: UTF8.self)))
    }
}
