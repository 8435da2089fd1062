/// One error value for the sentence rules, with the other texts it renders (the sentence
/// for one role, or for one account) that must follow the same rules.
struct ErrorSample: Sendable {
    let error: any Error
    let variants: [String]

    init(_ error: any Error, variants: [String] = []) {
        self.error = error
        self.variants = variants
    }

    /// `Module.Type.case` for an enum value or a struct with a code (the case of its stored
    /// `kind`), `Module.Type` otherwise: the key ``ScannedErrorType/keys`` uses. Read from
    /// the value, not written next to it.
    var key: String {
        let type = String(reflecting: Swift.type(of: error))
        return (enumCaseName(of: error) ?? kindCaseName(of: error)).map { "\(type).\($0)" } ?? type
    }
}

/// A text that stands for account data or a secret in samples; no sentence may contain it.
/// (File paths, host names and the library's own identifiers may appear; they are not secret.)
let secretMarker = "SECRETMARKER7F3A"

/// The case name of an enum value, from the runtime's reflection metadata, whatever its
/// `description` says; `nil` for a struct or class.
private func enumCaseName(of error: any Error) -> String? {
    func open<Value>(_ value: Value) -> String? { swiftEnumCaseName(value).map { String(cString: $0) } }
    return open(error)
}

/// The case name of a struct's stored `kind` enum (``ScannedErrorType``'s struct with a code),
/// read by reflection like the scan reads the declaration; `nil` when there is none.
private func kindCaseName(of error: any Error) -> String? {
    guard Mirror(reflecting: error).displayStyle == .struct,
          let kind = Mirror(reflecting: error).children.first(where: { $0.label == "kind" })?.value,
          Mirror(reflecting: kind).displayStyle == .enum else { return nil }
    func open<Value>(_ value: Value) -> String? { swiftEnumCaseName(value).map { String(cString: $0) } }
    return open(kind)
}

/// The Swift runtime's entry point behind `print` for enum cases (`swift_EnumCaseName`).
@_silgen_name("swift_EnumCaseName")
private func swiftEnumCaseName<Value>(_ value: Value) -> UnsafePointer<CChar>?
