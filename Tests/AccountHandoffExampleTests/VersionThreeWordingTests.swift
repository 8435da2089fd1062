import Foundation
import Testing

/// Version 4 is the protocol's only version (Spec README): every label starts with `AH4`, the
/// version bytes are 4, and versions 1-3 are refused. No page a reader learns the protocol from
/// may still present version 3 as the current one, nor what version 4 removed (abort reason 7,
/// the "memory refused" rows). The pages and their reading are those of
/// ``VersionTwoWordingTests``; Spec/protocol.md's section 10, which says what changed from the
/// earlier versions, is history and not read.
@Suite struct VersionThreeWordingTests {
    /// What a reader of version 3 would find and version 4 does not say.
    static let phrases = [
        "protocol version 3", "defines version 3", "version 3 only", "ah3 ", "abort reason 7", "memory refused",
        "memoryrefused",
    ]

    /// `text` without Spec/protocol.md's history section (10, Changes from earlier versions).
    static func current(_ path: String, _ text: String) -> String {
        guard path == "Spec/protocol.md", let history = text.range(of: "\n## 10. ") else { return text }
        return String(text[..<history.lowerBound])
    }

    /// Every phrase of ``phrases`` in `text`, with a few words around it.
    static func findings(in text: String) -> [String] {
        let plain = VersionTwoWordingTests.normalised(text)
        return phrases.flatMap { phrase in
            plain.ranges(of: phrase).map { range in
                let before = plain.index(range.lowerBound, offsetBy: -30, limitedBy: plain.startIndex) ?? plain.startIndex
                let after = plain.index(range.upperBound, offsetBy: 30, limitedBy: plain.endIndex) ?? plain.endIndex
                return "\"\(phrase)\" in \"...\(plain[before..<after])...\""
            }
        }
    }

    @Test func noPageSpeaksOfVersionThreeAsTheCurrentOne() throws {
        let pages = try VersionTwoWordingTests.pages()
        #expect(pages.count > 300, "the scan read only \(pages.count) pages")
        #expect(pages.contains { $0.0 == "Spec/protocol.md" } && pages.contains { $0.0 == "README.md" })
        let found = pages.flatMap { path, text in Self.findings(in: Self.current(path, text)).map { "\(path): \($0)" } }
        #expect(found.isEmpty, "version-3 wording: \(found.joined(separator: "; "))")
    }

    @Test func theHistorySectionIsLeftOutAndTheRestIsRead() throws {
        let spec = try DocumentationScan.read("Spec/protocol.md")
        #expect(!Self.findings(in: spec).isEmpty, "section 10 names version 3's labels")
        #expect(Self.findings(in: Self.current("Spec/protocol.md", spec)).isEmpty)
        #expect(Self.findings(in: "/// Every label starts\n/// with `AH3 `.").count == 1)
        #expect(Self.findings(in: "Every label starts with `AH4 `; protocol version 4.").isEmpty)
    }
}
