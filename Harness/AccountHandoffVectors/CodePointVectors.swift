import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// `plaintexts.json#codePoints` (Spec 3.7): every code point at an edge of a range of
/// `Spec/account-text-tables.txt` (its first and last code point and the ones just outside it,
/// surrogates aside), each put into ten strings that let one property show: T2 in each kind of
/// field, a run of five (T5), the 65th display unit (T6), a ZWJ after it (a virama, T3), and a
/// ZWNJ on either side of it, behind it or before it (its Joining_Type, T3). The verdicts are the library's:
/// `refused` is a bitmap, one bit per code point in increasing order, most significant bit first, set
/// when the string is refused.
package enum CodePointVectors {
    /// One string shape: `before`, the code point `repeat` times, `after`, checked as `field`.
    package struct Context {
        let name: String
        let field: HandoffError.Field
        let before: String
        let count: Int
        let after: String
    }

    package static let contexts: [Context] = [
        Context(name: "between two letters, as a display name (T2)", field: .displayName, before: "a", count: 1, after: "a"),
        Context(name: "between two letters, as an e-mail address (T2, T4)", field: .emailAddress, before: "a", count: 1, after: "a"),
        Context(name: "between two letters, as an IMAP host (T2, T7)", field: .imapHost, before: "a", count: 1, after: "a"),
        Context(name: "five times after a letter (T5: General_Category Mn or Me)", field: .displayName, before: "a", count: 5, after: ""),
        Context(name: "after 63 letters, a consonant and a virama, as the 65th display unit (T6)", field: .displayName,
                before: String(repeating: "a", count: 63) + "\u{915}\u{94D}", count: 1, after: ""),
        Context(name: "before a ZWJ (T3: Canonical_Combining_Class 9)", field: .displayName, before: "a", count: 1, after: "\u{200D}"),
        Context(name: "before a ZWNJ and a dual-joining letter (T3: Joining_Type L or D)", field: .displayName, before: "",
                count: 1, after: "\u{200C}\u{628}"),
        Context(name: "after a dual-joining letter and a ZWNJ (T3: Joining_Type R or D)", field: .displayName,
                before: "\u{628}\u{200C}", count: 1, after: ""),
        Context(name: "between a dual-joining letter and a ZWNJ before another (T3: Joining_Type T)", field: .displayName,
                before: "\u{628}", count: 1, after: "\u{200C}\u{628}"),
        Context(name: "between a ZWNJ and a dual-joining letter, after another (T3: Joining_Type T, also of a virama)",
                field: .displayName, before: "\u{628}\u{200C}", count: 1, after: "\u{628}"),
    ]

    static func make() throws -> [JSONValue] {
        let codePoints = try edgeCodePoints()
        return try contexts.map { context in
            var refused = [UInt8](repeating: 0, count: (codePoints.count + 7) / 8)
            for (index, value) in codePoints.enumerated() {
                let scalar = Character(Unicode.Scalar(value)!)
                let text = context.before + String(repeating: String(scalar), count: context.count) + context.after
                let thrown = VectorSupport.thrownIdentifier { () throws(HandoffError) in
                    try VectorPrimitives.validateAccountText(text, field: context.field)
                }
                switch thrown {
                case nil: break
                case HandoffError.malformed(context.field).identifier: refused[index / 8] |= 0x80 >> UInt8(index % 8)
                case let other?: throw VectorGenerationError("code point \(value) \(context.name): \(other)")
                }
            }
            return .object(["name": .string(context.name), "field": .string(context.field.rawValue), "before": .string(context.before),
                            "repeat": .number(context.count), "after": .string(context.after),
                            "codePoints": .number(codePoints.count), "refused": .hex(refused)])
        }
    }

    /// The first and last code point of every range of every group of the Spec's data file, and
    /// the code points next to them, in order; surrogates (no string holds one) left out.
    package static func edgeCodePoints() throws -> [UInt32] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Spec/account-text-tables.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw VectorGenerationError("cannot read \(url.path)") }
        var edges = Set<UInt32>()
        for line in text.split(separator: "\n") {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard let span = content.split(separator: ";").first?.trimmingCharacters(in: .whitespaces), !span.isEmpty else { continue }
            let bounds = span.components(separatedBy: "..").compactMap { UInt32($0, radix: 16) }
            guard let first = bounds.first, let last = bounds.last else { throw VectorGenerationError("data file line \(line)") }
            edges.formUnion([first, last, last + 1])
            if first > 0 { edges.insert(first - 1) }
        }
        return edges.filter { $0 <= 0x10FFFF && !(0xD800...0xDFFF).contains($0) }.sorted()
    }
}
