import AccountHandoff
import Foundation

/// A JSON value with one fixed textual form, so regenerated vector files are byte-identical:
/// object keys sorted by their UTF-8 bytes, two-space indentation, `": "` after keys, an object
/// or array whose members are all scalars on one line (`{"a": 1, "b": "x"}`), integers, times
/// that are exact binary fractions in their shortest round-trip form, strings with `"`, `\`
/// and invisible or control characters escaped (``isEscaped(_:)``), a final newline.
indirect enum JSONValue: Equatable, Sendable {
    /// A JSON object; key order is irrelevant (output is sorted).
    case object([String: JSONValue])
    /// A JSON array.
    case array([JSONValue])
    /// A JSON string.
    case string(String)
    /// A JSON integer.
    case int(Int64)
    /// A finite JSON number with a fractional part (times such as `1800000179.5`).
    case fraction(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// Lowercase hex of `bytes` as a string value.
    static func hex(_ bytes: [UInt8]) -> JSONValue { .string(Hex.encode(bytes)) }

    /// An integer value.
    static func number<T: BinaryInteger>(_ value: T) -> JSONValue { .int(Int64(value)) }

    /// A time in Unix seconds (Vectors/README.md, "Times"): an integer, a fraction, or one of
    /// the strings `nan`, `+infinity`, `-infinity` for a time that is not a finite number.
    static func time(_ seconds: Double) -> JSONValue {
        if seconds.isNaN { return .string("nan") }
        if seconds.isInfinite { return .string(seconds > 0 ? "+infinity" : "-infinity") }
        if seconds == seconds.rounded(.down), abs(seconds) < 9_007_199_254_740_992 { return .int(Int64(seconds)) }
        return .fraction(seconds)
    }

    /// The canonical text of this value, ending with a newline.
    var canonicalText: String {
        var output = ""
        write(into: &output, indent: 0)
        return output + "\n"
    }

    private var isScalar: Bool {
        switch self {
        case .object, .array: false
        case .string, .int, .fraction, .bool, .null: true
        }
    }

    private static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    private func write(into output: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent)
        let innerPad = String(repeating: "  ", count: indent + 1)
        switch self {
        case .object(let members) where members.values.allSatisfy(\.isScalar):
            output += "{" + Self.sortedKeys(members).map { key in
                var value = ""
                members[key]!.write(into: &value, indent: 0)
                return Self.quoted(key) + ": " + value
            }.joined(separator: ", ") + "}"
        case .array(let elements) where elements.allSatisfy(\.isScalar):
            output += "[" + elements.map { element in
                var value = ""
                element.write(into: &value, indent: 0)
                return value
            }.joined(separator: ", ") + "]"
        case .object(let members):
            output += "{\n"
            let keys = Self.sortedKeys(members)
            for (index, key) in keys.enumerated() {
                output += innerPad + Self.quoted(key) + ": "
                members[key]!.write(into: &output, indent: indent + 1)
                output += index + 1 < keys.count ? ",\n" : "\n"
            }
            output += pad + "}"
        case .array(let elements):
            output += "[\n"
            for (index, element) in elements.enumerated() {
                output += innerPad
                element.write(into: &output, indent: indent + 1)
                output += index + 1 < elements.count ? ",\n" : "\n"
            }
            output += pad + "]"
        case .string(let text): output += Self.quoted(text)
        case .int(let value): output += String(value)
        case .fraction(let value): output += value.description
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where isEscaped(scalar):
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Code points written as `\uXXXX` escapes: controls, and the invisible, spacing,
    /// bidirectional and private-use characters the account text rules refuse (a fixed list,
    /// so the output does not depend on the toolchain's Unicode tables, and so a vector file
    /// cannot reorder or hide text in a reviewer's terminal).
    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0xA0, 0xAD, 0x34F, 0x61C, 0x115F...0x1160, 0x17B4...0x17B5, 0x180B...0x180F,
             0x2000...0x200F, 0x2028...0x202F, 0x205F...0x206F, 0x3000, 0x3164, 0xE000...0xF8FF, 0xFE00...0xFE0F,
             0xFEFF, 0xFFA0, 0xFFF0...0xFFFF, 0x1D173...0x1D17A, 0xE0000...0xE0FFF, 0xF0000...0x10FFFF:
            true
        default:
            false
        }
    }
}
