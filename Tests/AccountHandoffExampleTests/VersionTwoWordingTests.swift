import Foundation
import Testing

/// Version 3 has no "compare the codes on both screens": the sending person types the code the
/// receiving device shows (Spec 4.4), and the receiving person accepts the account (Spec 6.2).
/// No page a reader learns the protocol from may still say otherwise: the Spec, the vectors and
/// their notes, the README and the other top-level pages, the DocC catalog, and the doc comments
/// of Sources/ and Harness/. The phrases are matched case-insensitively across line breaks,
/// comment markers, Markdown emphasis and code spans.
@Suite struct VersionTwoWordingTests {
    /// What version 2 said (or a reader of version 2 would say) and version 3 does not.
    static let phrases = [
        "compare the code", "compares the code", "comparing the code", "compare codes", "comparing codes",
        "code to compare", "codes to compare", "people compare", "confirmed by comparing", "on both screens",
        "approve the export", "approves the export", "explicit confirmation", "confirm the same code",
        "confirms the same code", "confirm a six-digit code", "confirming a six-digit code", "shown by an honest sender",
        "sender shows its code", "sender shows the code", "sending device shows its code", "sending device shows the code",
        "both devices show", "show the same code", "shows the same code", "showed the same code", "against version 2",
        "codeconfirmed", "coderejected",
    ]

    /// `text` as the phrases are looked for in it: lower case, without the characters that mark
    /// up or break a sentence (code spans, emphasis, comment markers), every run of white space
    /// one space.
    static func normalised(_ text: String) -> String {
        let unmarked = text.lowercased().replacingOccurrences(of: "///", with: " ").filter { !"`*".contains($0) }
        return unmarked.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Every phrase of ``phrases`` in `text`, with a few words around it.
    static func findings(in text: String) -> [String] {
        let plain = normalised(text)
        return phrases.flatMap { phrase -> [String] in
            var found: [String] = []
            var start = plain.startIndex
            while let range = plain.range(of: phrase, range: start..<plain.endIndex) {
                let before = plain.index(range.lowerBound, offsetBy: -30, limitedBy: plain.startIndex) ?? plain.startIndex
                let after = plain.index(range.upperBound, offsetBy: 30, limitedBy: plain.endIndex) ?? plain.endIndex
                found.append("\"\(phrase)\" in \"...\(plain[before..<after])...\"")
                start = range.upperBound
            }
            return found
        }
    }

    /// The pages scanned, as (path, the text a reader reads there).
    static func pages() throws -> [(String, String)] {
        var paths = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"]
        paths += try DocumentationScan.files(under: "Spec", ending: ".md")
        paths += try DocumentationScan.files(under: "Vectors", ending: ".md") + DocumentationScan.files(under: "Vectors", ending: ".json")
        paths += try DocumentationScan.files(under: "Sources", ending: ".md")
        var out = try paths.map { ($0, try DocumentationScan.read($0)) }
        for folder in ["Sources", "Harness"] {
            for path in try DocumentationScan.files(under: folder, ending: ".swift") {
                let comments = DocumentationScan.docCommentLines(of: try DocumentationScan.read(path))
                out.append((path, comments.map { $0.map(\.1).joined(separator: "\n") }.joined(separator: "\n\n")))
            }
        }
        return out
    }

    @Test func noPageSpeaksOfComparingCodes() throws {
        let pages = try Self.pages()
        #expect(pages.count > 300, "the scan read only \(pages.count) pages")
        #expect(pages.contains { $0.0 == "Spec/security.md" } && pages.contains { $0.0 == "Vectors/sessions.json" })
        let found = pages.flatMap { path, text in Self.findings(in: text).map { "\(path): \($0)" } }
        #expect(found.isEmpty, "version-2 wording: \(found.joined(separator: "; "))")
    }

    @Test func theMatchIgnoresCaseLineBreaksAndMarkup() {
        let text = """
            /// Both people **Compare
            /// the** `code` on both
            /// screens.
            """
        #expect(Self.findings(in: text).count == 3)  // "people compare", "compare the code", "on both screens"
        #expect(Self.findings(in: "the sending person types the code the receiving screen shows").isEmpty)
    }
}
