import Testing

/// The scanner finds the declaration forms the library uses, and nothing that only looks
/// like one (in a comment, a string, a switch or a function body).
@Suite struct ErrorDeclarationScannerTests {
    static let source = #"""
        import Foundation

        /// A doc comment that mentions `public enum Fake: Error { case fake }`.
        public enum Outer: Error, Hashable, Sendable {
            /// Nested, not an error.
            public enum Field: String { case a, b }
            /// Nested error.
            public enum Inner: Swift.Error { case deep(Int) }
            case plain, other
            case payload(Int, in: String)
            indirect case nested(Outer)
            case spread(
                first: Int,
                second: String
            )
            case raw = 1

            var description: String {
                switch self {
                case .plain: "a { brace in a string } and a \(interpolated("case x")) part"
                default: """
                    case multi
                    """
                }
            }
            /* block /* nested */ comment with case hidden { */
        }

        @frozen public struct ValueFailure: LocalizedError, CustomStringConvertible {
            public let code: Int32
            public var description: String { "code \(code)" }
        }

        public enum ViaExtension { case one }
        extension ViaExtension: Error {}

        public protocol SpecialError: Error {}
        public final class ThroughProtocol: SpecialError {}

        enum InternalError: Error { case hidden }
        struct Holder { public enum InsideInternal: Error { case hidden } }
        public struct PublicHolder { public enum Nested: Error { case shown } }
        extension PublicHolder { public enum FromExtension: Error { case added } }
        func local() { enum Local: Error { case hidden } }
        public enum NotAnError: String { case value }

        public struct Coded: Error, Hashable {
            package let kind: Kind
            public static let first = Coded(kind: .first)
            private enum Unrelated { case hidden }
        }
        extension Coded { package enum Kind: Hashable { case first, second(Int) } }
        public struct CodedInBody: LocalizedError { enum Kind { case only } }
        public struct KindIsNotAnEnum: Error { struct Kind {} }
        """#

    @Test func findsEveryPublicErrorTypeAndItsCases() {
        var scanner = ErrorDeclarationScanner()
        scanner.scan(source: Self.source, module: "Sample", path: "Sample.swift")
        let found = scanner.errorTypes().map { "\($0.name):\($0.hasCases ? $0.cases.joined(separator: ",") : "type")" }
        #expect(found == [
            "Coded:first,second",
            "CodedInBody:only",
            "KindIsNotAnEnum:type",
            "Outer:plain,other,payload,nested,spread,raw",
            "Outer.Inner:deep",
            "PublicHolder.FromExtension:added",
            "PublicHolder.Nested:shown",
            "ThroughProtocol:type",
            "ValueFailure:type",
            "ViaExtension:one",
        ])
    }

    @Test func keysNameTheModuleTypeAndCase() {
        var scanner = ErrorDeclarationScanner()
        scanner.scan(source: "public enum E: Error { case a, b(Int) }\npublic struct S: Error {}", module: "M", path: "M.swift")
        #expect(scanner.errorTypes().flatMap(\.keys) == ["M.E.a", "M.E.b", "M.S"])
        #expect(scanner.errorTypes().first?.location == "M.swift:1")
    }

    /// A struct with a code is keyed by its `Kind`'s cases, like an enum.
    @Test func aStructWithACodeIsKeyedByItsKindsCases() {
        var scanner = ErrorDeclarationScanner()
        scanner.scan(source: "public struct C: Error { package let kind: Kind }\nextension C { package enum Kind { case a, b(Int) } }",
                     module: "M", path: "M.swift")
        #expect(scanner.errorTypes().flatMap(\.keys) == ["M.C.a", "M.C.b"])
    }

    @Test func blanksCommentsAndStringsButKeepsLines() {
        let code = String(decoding: SwiftCodeText.code(of: "a // b {\n\"c { \\(d(\"e\")) f\" /* g */ h"), as: UTF8.self)
        let blanks = { (count: Int) in String(repeating: " ", count: count) }
        #expect(code == "a" + blanks(7) + "\n\"" + blanks(15) + "\"" + blanks(9) + "h")
    }
}
