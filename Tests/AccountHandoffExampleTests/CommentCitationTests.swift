import Foundation
import Testing

/// Comments cite Spec sections, never issue numbers or reviews: an issue is gone once it is
/// closed, a review once it was read; the Spec section stays (CONTRIBUTING.md). Checked in the
/// comments of every Swift file under Sources/, Tests/ and Fuzz/, the manifests, and the
/// scripts and verifier (whose comments and docstrings are most of their prose).
@Suite struct CommentCitationTests {
    /// Whether `text` cites an issue by number: "issue" or "issues", a space, an optional `#`
    /// and a digit, in any case.
    static func citesAnIssue(_ text: String) -> Bool {
        let lower = Array(text.lowercased().unicodeScalars)
        let word = Array("issue".unicodeScalars)
        var index = 0
        while index + word.count <= lower.count {
            defer { index += 1 }
            guard Array(lower[index..<index + word.count]) == word,
                  index == 0 || !CharacterSet.alphanumerics.contains(lower[index - 1]) else { continue }
            var next = index + word.count
            if next < lower.count, lower[next] == "s" { next += 1 }
            guard next < lower.count, lower[next] == " " else { continue }
            next += 1
            if next < lower.count, lower[next] == "#" { next += 1 }
            if next < lower.count, CharacterSet.decimalDigits.contains(lower[next]) { return true }
        }
        return false
    }

    /// The comment text of a Swift file's lines: what follows `//`, and `/* ... */` blocks.
    static func swiftComments(_ source: String) -> [(line: Int, text: String)] {
        var comments: [(Int, String)] = []
        var inBlock = false
        for (index, line) in source.components(separatedBy: "\n").enumerated() {
            if inBlock {
                comments.append((index + 1, line))
                if line.contains("*/") { inBlock = false }
            } else if let slashes = line.range(of: "//") {
                comments.append((index + 1, String(line[slashes.lowerBound...])))
            } else if let open = line.range(of: "/*") {
                comments.append((index + 1, String(line[open.lowerBound...])))
                inBlock = !line[open.upperBound...].contains("*/")
            }
        }
        return comments
    }

    /// Whether `text` cites a review rather than a Spec section: one of ``reviewPhrases`` as
    /// words, in any case. A review, like an issue, is forgotten; the rule it found lives in a
    /// Spec section.
    static func citesAReview(_ text: String) -> Bool {
        let lower = text.lowercased()
        for phrase in reviewPhrases {
            var search = lower.startIndex
            while let range = lower.range(of: phrase, range: search..<lower.endIndex) {
                search = range.upperBound
                let before = range.lowerBound == lower.startIndex ? nil : lower[lower.index(before: range.lowerBound)]
                let after = range.upperBound == lower.endIndex ? nil : lower[range.upperBound]
                guard before.map({ !$0.isLetter }) ?? true else { continue }
                if phrase == "finding " {
                    if after?.isNumber == true { return true }
                } else if after.map({ !$0.isLetter }) ?? true {
                    return true
                }
            }
        }
        return false
    }

    /// What cites a review: the word with the definite article, its possessive, and the noun
    /// for what one found followed by a number.
    static let reviewPhrases = ["the " + "review", "review" + "'s", "finding" + " "]

    /// Every comment line that cites an issue or a review, as `path:line: text`.
    static func citations(in path: String) throws -> [String] {
        let source = try DocumentationScan.read(path)
        let lines = path.hasSuffix(".swift")
            ? swiftComments(source)
            : source.components(separatedBy: "\n").enumerated().map { ($0.offset + 1, $0.element) }
        return lines.filter { citesAnIssue($0.text) || citesAReview($0.text) }
            .map { "\(path):\($0.line): \($0.text.trimmingCharacters(in: .whitespaces))" }
    }

    @Test func noCommentCitesAnIssueNumberOrAReview() throws {
        var paths = ["Package.swift", "Fuzz/Package.swift"]
        for folder in ["Sources", "Harness", "Tests", "Fuzz"] { paths += try DocumentationScan.files(under: folder, ending: ".swift") }
        for folder in ["Scripts", "Verifier"] {
            paths += try DocumentationScan.files(under: folder, ending: ".py") + DocumentationScan.files(under: folder, ending: ".sh")
        }
        let found = try paths.flatMap(Self.citations(in:))
        #expect(paths.count > 300, "the scan read only \(paths.count) files")
        #expect(found.isEmpty, "cite the Spec section instead: \(found.joined(separator: "; "))")
    }

    @Test func theScanSeesCitationsInCommentsOnly() {
        let number = "1" + "2"
        let source = """
            let text = "the issue \(number) of a string is no comment"
            // line comment: issue \(number)
            /// doc comment (issues \(number) and 9)
            /* block
               Issue #\(number) */
            let reissued = 3  // re-issued twice, no number
            """
        let found = Self.swiftComments(source).filter { Self.citesAnIssue($0.text) }.map(\.line)
        #expect(found == [2, 3, 5])
    }

    @Test func theScanSeesCitationsOfAReview() {
        let cited = ["Played as the review did.", "The review's findings", "The adversarial review's three findings",
                     "Finding 2: Ctrl-C after the password was sent.", "as THE REVIEW found"]
        let fine = ["the receiving person reviews the account", "a reviewer's terminal", "review the diff",
                    "the previewed code", "finding no guarded memory", "The reviewed sentence"]
        #expect(cited.filter { !Self.citesAReview($0) } == [])
        #expect(fine.filter(Self.citesAReview) == [])
    }
}
