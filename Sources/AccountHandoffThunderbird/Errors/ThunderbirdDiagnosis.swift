import AccountHandoff

/// What is wrong in a profile file that a reader refused, such as "the integer 99999999999 is
/// not a 32-bit integer": the clause that an error such as
/// ``ThunderbirdProfileError/preferencesInvalid(path:line:problem:)`` puts inside its sentence.
///
/// A diagnosis keeps its entry in the module's String Catalog and the values that go into it,
/// and is put into words only when ``sentence(in:)`` is called, in the language asked for: a
/// diagnosis made in an English process reads German inside a German sentence. A diagnosis of
/// text nested in a file (the JSON problem inside `logins.json`) holds the inner diagnosis
/// itself, so it too is said in the language asked for. Two diagnoses are equal when they name
/// the same problem with the same values.
public struct ThunderbirdDiagnosis: Hashable, Sendable, CustomStringConvertible {
    /// A value that goes into one of the diagnosis's placeholders.
    enum Argument: Hashable, Sendable {
        /// Text or a number, inserted as it is.
        case value(SentenceArgument)
        /// A diagnosis of nested text, said in the language of the whole.
        case diagnosis(ThunderbirdDiagnosis)

        /// Text, for `%@`.
        static func text(_ text: String) -> Argument { .value(.text(text)) }

        /// An integer, for `%lld`.
        static func number(_ value: some BinaryInteger) -> Argument { .value(.number(value)) }

        func rendered(in language: HandoffLanguage) -> SentenceArgument {
            switch self {
            case .value(let value): value
            case .diagnosis(let nested): .text(nested.sentence(in: language))
            }
        }
    }

    /// The catalog key (`diagnosis.…`).
    let key: String
    /// The values for the key's placeholders, first placeholder first.
    let arguments: [Argument]

    /// A diagnosis; nothing is looked up until it is put into words.
    /// - Parameters:
    ///   - key: The catalog key, a string literal at the call site (the tests scan for them).
    ///   - arguments: The values for its placeholders.
    init(_ key: String, _ arguments: Argument...) {
        self.init(key, arguments: arguments)
    }

    /// ``init(_:_:)`` with the arguments as an array.
    init(_ key: String, arguments: [Argument]) {
        self.key = key
        self.arguments = arguments
    }

    /// The diagnosis in `language`: a clause, without a capital or a final mark, that goes
    /// inside the sentence of the error that carries it.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        sentenceCatalog.sentence(key, arguments: arguments.map { $0.rendered(in: language) }, in: language)
    }

    /// The diagnosis in English.
    public var description: String { sentence(in: .english) }
}
