/// The value of one Thunderbird preference.
enum PreferenceValue: Hashable, Sendable {
    case string(String)
    case integer(Int32)
    case boolean(Bool)

    /// The value as `prefs.js` writes it: a string in double quotes with `\`, `"`, line feed and
    /// carriage return escaped (what Thunderbird's own writer escapes), a decimal integer, or
    /// `true` / `false`.
    var literal: String {
        switch self {
        case .integer(let value): return String(value)
        case .boolean(let value): return value ? "true" : "false"
        case .string(let text):
            var escaped = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped + "\""
        }
    }
}
