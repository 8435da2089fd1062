import Foundation

/// A language the library's sentences come in. The app chooses it: pass one to a sentence
/// accessor (``HandoffError/sentence(in:)``, ``SenderOutcome/message(in:)``), or let
/// `LocalizedError.errorDescription` follow ``current``. Each module's sentences live in its
/// `Localizable.xcstrings` String Catalog, with one localization per case here.
public enum HandoffLanguage: String, CaseIterable, Hashable, Sendable {
    /// English, the catalogs' source language; the present English accessors use it.
    case english = "en"
    /// German.
    case german = "de"

    /// The language of `locale`, or English when the library has none for it.
    /// - Parameter locale: The locale the app shows its screens in.
    public init(_ locale: Locale) {
        self = Self(languageTag: locale.identifier) ?? .english
    }

    /// The language of a BCP 47 or POSIX locale name (`de`, `de-CH`, `de_DE.UTF-8`), or nil
    /// when the library has none for it.
    /// - Parameter languageTag: The name; only its language part counts.
    public init?(languageTag: String) {
        let language = languageTag.prefix { $0.isLetter }.lowercased()
        guard let known = Self(rawValue: language) else { return nil }
        self = known
    }

    /// The language of this process: on Apple platforms the person's first preferred language
    /// the library has; elsewhere the POSIX message locale (``init(posixEnvironment:)``).
    /// English when none fits.
    public static var current: HandoffLanguage {
        #if canImport(Darwin)
        Locale.preferredLanguages.lazy.compactMap { Self(languageTag: $0) }.first ?? .english
        #else
        Self(posixEnvironment: ProcessInfo.processInfo.environment)
        #endif
    }

    /// The language of POSIX's message category: the first non-empty of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG`; English when that names no language the library has (or is
    /// `C`/`POSIX`).
    /// - Parameter environment: The process environment.
    public init(posixEnvironment environment: [String: String]) {
        let name = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        self = name.flatMap { Self(languageTag: $0) } ?? .english
    }
}
