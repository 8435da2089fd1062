/// Turns a short code into the text a screen reader speaks, digit by digit, in the app's
/// language. English (``english``) is the default; an app localises it by supplying its own
/// digit words and separators.
///
/// ```swift
/// let german = ShortCodeFormatter(digitWords: ["null", "eins", "zwei", "drei", "vier",
///                                              "fünf", "sechs", "sieben", "acht", "neun"])
/// label.accessibilityLabel = german.accessibilityLabel(for: code)  // "vier acht zwei, neun eins drei"
/// ```
public struct ShortCodeFormatter: Hashable, Sendable {
    /// The words for the digits 0 to 9, in order.
    public let digitWords: [String]
    /// Between the words of one group of three digits.
    public let wordSeparator: String
    /// Between the two groups.
    public let groupSeparator: String

    /// A formatter with these words and separators.
    ///
    /// - Precondition: `digitWords` has exactly 10 entries.
    public init(digitWords: [String], wordSeparator: String = " ", groupSeparator: String = ", ") {
        precondition(digitWords.count == 10, "a short-code formatter needs ten digit words")
        self.digitWords = digitWords
        self.wordSeparator = wordSeparator
        self.groupSeparator = groupSeparator
    }

    /// English digit words: `"zero four eight, two nine one"` (Spec 4.4, `spoken`).
    public static let english = ShortCodeFormatter(
        digitWords: ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"])

    /// The grouped form shown on screen, `"048 291"`.
    public func visibleText(for code: ShortCode) -> String { code.grouped }

    /// The spoken form: each digit as a word, the two groups of three apart.
    public func accessibilityLabel(for code: ShortCode) -> String {
        let words = code.digits.utf8.map { digitWords[Int($0 - 0x30)] }
        return words[0..<3].joined(separator: wordSeparator) + groupSeparator + words[3...].joined(separator: wordSeparator)
    }
}
