import Foundation

/// An error whose `description` is a whole sentence for people, saying what happened and
/// what to do next, with no secret in it. `LocalizedError` reports that sentence, so
/// `localizedDescription` never falls back to "The operation could not be completed".
public protocol LocalizedErrorSentence: LocalizedError, CustomStringConvertible {}

extension LocalizedErrorSentence {
    /// The sentence of ``description``.
    public var errorDescription: String? { description }
}

/// An error whose sentence comes from the library's String Catalogs, in a language the app
/// chooses. `description` is the English sentence; `LocalizedError.errorDescription` (and so
/// `localizedDescription`) is the sentence in ``HandoffLanguage/current``.
public protocol TranslatedSentence: LocalizedErrorSentence {
    /// The whole sentence in `language`.
    /// - Parameter language: The language to say it in.
    func sentence(in language: HandoffLanguage) -> String
}

extension TranslatedSentence {
    /// The English sentence.
    public var description: String { sentence(in: .english) }

    /// The sentence in the process's language (``HandoffLanguage/current``).
    public var errorDescription: String? { sentence(in: .current) }
}
