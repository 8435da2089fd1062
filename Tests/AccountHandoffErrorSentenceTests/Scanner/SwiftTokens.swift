/// One token of blanked Swift code: an identifier (backticks removed) or one punctuation
/// character, with its line.
struct SwiftToken: Equatable {
    let text: String
    let line: Int

    var isIdentifier: Bool { text.first.map { $0.isLetter || $0 == "_" } ?? false }
}

enum SwiftTokens {
    /// The tokens of `code` (from ``SwiftCodeText``). Numbers and operators come out one
    /// character at a time; the scanner only needs names and brackets.
    static func tokens(of code: [UInt8]) -> [SwiftToken] {
        var tokens: [SwiftToken] = []
        var line = 1
        var index = 0
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5f
        }
        while index < code.count {
            let byte = code[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                index += 1
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "`") {
                index += 1
            } else if isWordByte(byte) && !(byte >= 0x30 && byte <= 0x39) {
                let start = index
                while index < code.count && isWordByte(code[index]) { index += 1 }
                tokens.append(SwiftToken(text: String(decoding: code[start..<index], as: UTF8.self), line: line))
            } else {
                tokens.append(SwiftToken(text: String(UnicodeScalar(byte)), line: line))
                index += 1
            }
        }
        return tokens
    }
}
