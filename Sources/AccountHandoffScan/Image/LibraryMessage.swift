import AccountHandoff

/// What a C image library said when it refused a file: its message code (libjpeg's
/// `J_MESSAGE_CODE`) and its English text, which describes the file's structure (markers,
/// sizes), never its pixels.
public struct LibraryMessage: Hashable, Sendable {
    /// The library's code for the message.
    public let code: Int
    /// The library's text, printable ASCII only; empty when it gave none.
    public let text: String

    /// A message; `text` is kept as given.
    public init(code: Int, text: String) {
        self.code = code
        self.text = text
    }

    /// The printable ASCII characters of a NUL-terminated C string held in a fixed array (a
    /// tuple, as Swift imports `char message[N]`); empty when there are none.
    static func printableText<CharArray>(ofCString characters: CharArray) -> String {
        withUnsafeBytes(of: characters) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }.filter { (0x20..<0x7F).contains($0) }, as: UTF8.self)
        }
    }

    /// A library's `text` as the sentences show it: its own words, or words saying it gave none.
    static func words(_ text: String, in language: HandoffLanguage) -> String {
        text.isEmpty ? sentenceCatalog.sentence("image.libraryGaveNoReason", in: language) : text
    }
}
