import Foundation

/// An error whose `description` is a whole sentence for people, saying what happened and
/// what to do next, with no secret in it. `LocalizedError` reports that sentence, so
/// `localizedDescription` never falls back to "The operation could not be completed".
public protocol LocalizedErrorSentence: LocalizedError, CustomStringConvertible {}

extension LocalizedErrorSentence {
    /// The sentence of ``description``.
    public var errorDescription: String? { description }
}
