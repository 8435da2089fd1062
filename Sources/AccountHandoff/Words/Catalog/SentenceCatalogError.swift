/// Why a String Catalog of the library's sentences was refused. Raised by the tests and the
/// loader; an app never sees it (a refused catalog leaves its sentences as their keys).
package enum SentenceCatalogError: Error, Equatable, Sendable {
    /// The file is missing from the module's resources or cannot be read.
    case unreadable(String)
    /// The file is not a String Catalog of the shape ``SentenceCatalog`` reads: the JSON path
    /// of the first thing that is wrong.
    case malformed(String)
    /// A sentence has a `%` that is not a placeholder the formatter knows.
    case invalidPlaceholder(key: String, language: String)
    /// A translation's placeholders differ from the English sentence's in kind or count.
    case placeholderMismatch(key: String, language: String)
    /// A language of ``HandoffLanguage`` has no sentence, or an empty one, for a key.
    case missingTranslation(key: String, language: String)
}
