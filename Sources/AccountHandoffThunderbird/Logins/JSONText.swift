/// A JSON value that keeps what `logins.json` holds exactly: members in file order and
/// numbers as they were written, so fields this library does not know are written back as they
/// were. Parsing is strict (RFC 8259): no trailing bytes, no duplicate member names, a depth
/// cap, and only the escapes JSON defines.
indirect enum JSONText: Equatable {
    case object([(name: String, value: JSONText)])
    case array([JSONText])
    case string(String)
    /// A number, as written.
    case number(String)
    case boolean(Bool)
    case null

    static func == (lhs: JSONText, rhs: JSONText) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.boolean(let a), .boolean(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// The deepest nesting accepted.
    static let maximumDepth = 32

    /// Why text is not JSON; the byte offset and what is wrong there.
    struct Problem: Error, Hashable {
        let offset: Int
        let reason: ThunderbirdDiagnosis
    }

    /// Parses `bytes` as one JSON value.
    static func parse(_ bytes: [UInt8]) throws(Problem) -> JSONText {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw Problem(offset: parser.offset, reason: ThunderbirdDiagnosis("diagnosis.json.trailingText")) }
        return value
    }

    /// The member `name` of an object, or `nil`.
    subscript(name: String) -> JSONText? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// The value as compact JSON, as Thunderbird writes `logins.json`.
    var serialized: String {
        switch self {
        case .object(let members): "{" + members.map { Self.quoted($0.name) + ":" + $0.value.serialized }.joined(separator: ",") + "}"
        case .array(let items): "[" + items.map(\.serialized).joined(separator: ",") + "]"
        case .string(let text): Self.quoted(text)
        case .number(let text): text
        case .boolean(let value): value ? "true" : "false"
        case .null: "null"
        }
    }

    /// A JSON string literal, escaping what JSON requires (as JavaScript's JSON.stringify does).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    private func problem(_ reason: ThunderbirdDiagnosis) -> JSONText.Problem { JSONText.Problem(offset: offset, reason: reason) }

    mutating func value(depth: Int) throws(JSONText.Problem) -> JSONText {
        guard depth <= JSONText.maximumDepth else { throw problem(ThunderbirdDiagnosis("diagnosis.json.tooDeep")) }
        skipWhitespace()
        guard offset < bytes.count else { throw problem(ThunderbirdDiagnosis("diagnosis.json.endsEarly")) }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .boolean(true)
        case UInt8(ascii: "f"): try literal("false"); return .boolean(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw problem(ThunderbirdDiagnosis("diagnosis.json.valueExpected"))
        }
    }

    private mutating func literal(_ word: String) throws(JSONText.Problem) {
        for byte in word.utf8 {
            guard offset < bytes.count, bytes[offset] == byte else { throw problem(ThunderbirdDiagnosis("diagnosis.json.valueExpected")) }
            offset += 1
        }
    }

    private mutating func object(depth: Int) throws(JSONText.Problem) -> JSONText {
        offset += 1
        var members: [(name: String, value: JSONText)] = []
        var names = Set<String>()
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw problem(ThunderbirdDiagnosis("diagnosis.json.memberNameExpected")) }
            let name = try string()
            guard names.insert(name).inserted else { throw problem(ThunderbirdDiagnosis("diagnosis.json.memberTwice", .text(name))) }
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw problem(ThunderbirdDiagnosis("diagnosis.json.colonExpected")) }
            offset += 1
            members.append((name, try value(depth: depth + 1)))
            skipWhitespace()
            guard offset < bytes.count else { throw problem(ThunderbirdDiagnosis("diagnosis.json.endsEarly")) }
            if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
            guard bytes[offset] == UInt8(ascii: "}") else { throw problem(ThunderbirdDiagnosis("diagnosis.json.commaOrBraceExpected")) }
            offset += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(JSONText.Problem) -> JSONText {
        offset += 1
        var items: [JSONText] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            guard offset < bytes.count else { throw problem(ThunderbirdDiagnosis("diagnosis.json.endsEarly")) }
            if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
            guard bytes[offset] == UInt8(ascii: "]") else { throw problem(ThunderbirdDiagnosis("diagnosis.json.commaOrBracketExpected")) }
            offset += 1
            return .array(items)
        }
    }

    private mutating func number() throws(JSONText.Problem) -> String {
        let start = offset
        func digits(_ parser: inout JSONParser) -> Int {
            let begin = parser.offset
            while parser.offset < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.offset]) { parser.offset += 1 }
            return parser.offset - begin
        }
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        let integerDigits = digits(&self)
        guard integerDigits > 0, !(integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0")) else { throw problem(ThunderbirdDiagnosis("diagnosis.json.numberMalformed")) }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits(&self) > 0 else { throw problem(ThunderbirdDiagnosis("diagnosis.json.numberMalformed")) }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits(&self) > 0 else { throw problem(ThunderbirdDiagnosis("diagnosis.json.numberMalformed")) }
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private mutating func string() throws(JSONText.Problem) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var runStart = offset
        func flush(_ parser: JSONParser, into scalars: inout String.UnicodeScalarView) throws(JSONText.Problem) {
            guard runStart < parser.offset else { return }
            guard let text = String(validating: parser.bytes[runStart..<parser.offset], as: UTF8.self) else {
                throw parser.problem(ThunderbirdDiagnosis("diagnosis.json.stringNotUTF8"))
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard offset < bytes.count else { throw problem(ThunderbirdDiagnosis("diagnosis.string.notClosed")) }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                try flush(self, into: &scalars)
                offset += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw problem(ThunderbirdDiagnosis("diagnosis.json.controlCharacter")) }
            guard byte == UInt8(ascii: "\\") else { offset += 1; continue }
            try flush(self, into: &scalars)
            offset += 1
            guard offset < bytes.count else { throw problem(ThunderbirdDiagnosis("diagnosis.string.notClosed")) }
            let escaped = bytes[offset]
            offset += 1
            switch escaped {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let first = try hex4()
                if (0xD800...0xDBFF).contains(first) {
                    guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                        throw problem(ThunderbirdDiagnosis("diagnosis.string.halfSurrogate"))
                    }
                    offset += 2
                    let second = try hex4()
                    guard (0xDC00...0xDFFF).contains(second),
                          let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) else {
                        throw problem(ThunderbirdDiagnosis("diagnosis.string.halfSurrogate"))
                    }
                    scalars.append(scalar)
                } else {
                    guard let scalar = Unicode.Scalar(first) else { throw problem(ThunderbirdDiagnosis("diagnosis.string.halfSurrogate")) }
                    scalars.append(scalar)
                }
            default: throw problem(ThunderbirdDiagnosis("diagnosis.json.unknownEscape"))
            }
            runStart = offset
        }
    }

    private mutating func hex4() throws(JSONText.Problem) -> UInt32 {
        guard offset + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self), radix: 16),
              bytes[offset..<(offset + 4)].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }) else {
            throw problem(ThunderbirdDiagnosis("diagnosis.json.escapeNotFourHexDigits"))
        }
        offset += 4
        return value
    }
}
