import AccountHandoff
import Foundation

/// A JSON value with one fixed textual form, so regenerated vector files are byte-identical:
/// object keys sorted by their UTF-8 bytes, two-space indentation, `": "` after keys, an object
/// or array whose members are all scalars on one line (`{"a": 1, "b": "x"}`), integers only,
/// strings escaped minimally (`"`, `\`, and control characters as `\u00XX`), a final newline.
indirect enum JSONValue: Equatable, Sendable {
    /// A JSON object; key order is irrelevant (output is sorted).
    case object([String: JSONValue])
    /// A JSON array.
    case array([JSONValue])
    /// A JSON string.
    case string(String)
    /// A JSON integer.
    case int(Int64)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// Lowercase hex of `bytes` as a string value.
    static func hex(_ bytes: [UInt8]) -> JSONValue { .string(Hex.encode(bytes)) }

    /// An integer value.
    static func number<T: BinaryInteger>(_ value: T) -> JSONValue { .int(Int64(value)) }

    /// The canonical text of this value, ending with a newline.
    var canonicalText: String {
        var output = ""
        write(into: &output, indent: 0)
        return output + "\n"
    }

    private var isScalar: Bool {
        switch self {
        case .object, .array: false
        case .string, .int, .bool, .null: true
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
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
