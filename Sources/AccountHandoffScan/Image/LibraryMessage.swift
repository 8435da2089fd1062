/// What a C image library said when it refused a file: its message code (libjpeg's
/// `J_MESSAGE_CODE`) and its English text, which describes the file's structure (markers,
/// sizes), never its pixels.
public struct LibraryMessage: Hashable, Sendable {
    /// The library's code for the message.
    public let code: Int
    /// The library's text, printable ASCII only.
    public let text: String

    /// A message; `text` is kept as given.
    public init(code: Int, text: String) {
        self.code = code
        self.text = text
    }

    /// The printable ASCII characters of a NUL-terminated C string held in a fixed array (a
    /// tuple, as Swift imports `char message[N]`), or "no reason given" when there are none.
    static func printableText<CharArray>(ofCString characters: CharArray) -> String {
        withUnsafeBytes(of: characters) { bytes in
            let text = bytes.prefix { $0 != 0 }.filter { (0x20..<0x7F).contains($0) }
            return text.isEmpty ? "no reason given" : String(decoding: text, as: UTF8.self)
        }
    }
}
