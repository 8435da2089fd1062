import AccountHandoff
import Foundation

/// What a sentence for people must be: whole, readable without decoding numbers, and free of
/// secrets and of Swift's debugging text.
enum SentenceRules {
    /// The rules `sentence` breaks, as short phrases; empty when it passes.
    static func problems(in sentence: String) -> [String] {
        var problems: [String] = []
        guard let first = sentence.first else { return ["is empty"] }
        if !(first.isLetter && first.isUppercase) { problems.append("does not start with a capital letter") }
        if !sentence.hasSuffix(".") { problems.append("does not end with '.'") }
        let lowercased = sentence.lowercased()
        for generic in ["the operation could not be completed", "the operation couldn’t be completed", "the operation couldn't be completed"]
        where lowercased.contains(generic) {
            problems.append("is Foundation's generic text")
        }
        if lowercased.contains("errno") { problems.append("says errno") }
        if lowercased.contains("posix code") { problems.append("says posix code") }
        if matches(#"\berror\s+-?[0-9]+\s*[).]"#, sentence) { problems.append("has an 'error N)' number") }
        if sentence.contains("Optional(") { problems.append("shows an Optional") }
        if sentence.contains("rawValue:") || matches(#"AccountHandoff[A-Za-z]*\.[A-Z]"#, sentence) {
            problems.append("shows a Swift value dump")
        }
        if sentence.contains("  ") { problems.append("has a double space") }
        if sentence.contains(secretMarker) { problems.append("echoes the secret marker") }
        return problems
    }

    /// Whether `error` speaks its sentence through every interface an app may use.
    static func interfaceProblems(of error: any Error) -> [String] {
        var problems: [String] = []
        if !(error is any LocalizedErrorSentence) { problems.append("is not a LocalizedErrorSentence") }
        guard let sentence = (error as? any LocalizedError)?.errorDescription else { return problems + ["has no errorDescription"] }
        if let described = error as? any LocalizedErrorSentence, described.description != sentence {
            problems.append("description differs from errorDescription")
        }
        if (error as NSError).localizedDescription != sentence { problems.append("NSError's localizedDescription differs") }
        if error.localizedDescription != sentence { problems.append("localizedDescription differs") }
        return problems
    }

    private static func matches(_ pattern: String, _ text: String) -> Bool {
        text.range(of: pattern, options: [.regularExpression, .caseInsensitive]) != nil
    }
}
