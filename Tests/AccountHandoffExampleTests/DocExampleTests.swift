import Foundation
import Testing

/// Every Swift example of the documentation compiles: each ```swift block of a doc comment
/// under Sources/ and of every Markdown file (README.md, Spec/, the DocC catalog) appears
/// verbatim, up to a common indentation, in a Swift file of this test target, which the
/// build type-checks. Doc-comment examples sit in DocExamples/, one function per example,
/// behind a marker `// example: <file>#<n>`; the README's example is TransferScreens.swift.
@Suite struct DocExampleTests {
    static let compiled = (try? DocumentationScan.compiledFiles()) ?? []

    /// The files and positions where `block` appears verbatim.
    static func places(of block: DocumentationBlock) -> [String] {
        compiled.compactMap { file in
            DocumentationScan.occurrence(of: block.lines, in: file.lines).map { "\(file.path):\($0 + 1)" }
        }
    }

    /// The markers `// example: <file>#<n>` of the compiled files: location, file, line index.
    static var markers: [(location: String, path: String, index: Int)] {
        compiled.flatMap { file in
            file.lines.enumerated().compactMap { index, line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("// example: ") else { return nil }
                return (String(trimmed.dropFirst("// example: ".count)), file.path, index)
            }
        }
    }

    @Test func everyExampleInADocCommentIsCompiledBehindItsMarker() throws {
        let blocks = try DocumentationScan.sourceBlocks()
        var notCompiled: [String] = []
        for block in blocks {
            // The block must follow its marker, before the next marker of the same file.
            let marked = Self.markers.filter { $0.location == block.location }.contains { marker in
                guard let file = Self.compiled.first(where: { $0.path == marker.path }),
                      let at = DocumentationScan.occurrence(of: block.lines, in: file.lines, from: marker.index + 1) else { return false }
                return !Self.markers.contains { $0.path == marker.path && $0.index > marker.index && $0.index < at }
            }
            if !marked { notCompiled.append("\(block): \(Self.places(of: block).isEmpty ? "not compiled" : "no marker before it")") }
        }
        print("Doc-comment examples: \(blocks.count) ```swift blocks found under Sources/, \(blocks.count - notCompiled.count) compiled")
        #expect(blocks.count >= 9, "the scan found only \(blocks.count) blocks")
        #expect(notCompiled.isEmpty, "Add each example verbatim to Tests/AccountHandoffExampleTests/DocExamples/ after a marker `// example: <file>#<n>`, or fence it as ```text when it is not Swift: \(notCompiled.joined(separator: "; "))")
    }

    @Test func everyExampleInMarkdownIsCompiled() throws {
        let blocks = try DocumentationScan.markdownBlocks()
        let notCompiled = blocks.filter { Self.places(of: $0).isEmpty }
        print("Markdown examples: \(blocks.count) ```swift blocks found, \(blocks.count - notCompiled.count) compiled")
        #expect(blocks.count >= 2, "the scan found only \(blocks.count) blocks")
        #expect(notCompiled.isEmpty, "Copy each example verbatim from a compiled file of Tests/AccountHandoffExampleTests (the README's from TransferScreens.swift), or fence it as ```text when it is not Swift: \(notCompiled.map(\.description).joined(separator: "; "))")
    }

    /// A marker whose example moved or went away would keep dead code compiled under a name
    /// that no longer documents anything.
    @Test func everyMarkerNamesAnExistingExample() throws {
        let locations = Set(try DocumentationScan.sourceBlocks().map(\.location) + DocumentationScan.markdownBlocks().map(\.location))
        let stale = Self.markers.filter { !locations.contains($0.location) }.map { "\($0.path):\($0.index + 1) names \($0.location)" }
        #expect(!Self.markers.isEmpty)
        #expect(stale.isEmpty, "markers without an example: \(stale.joined(separator: "; "))")
    }

    // MARK: The scan itself

    @Test func theScanFindsSwiftBlocksInBothDocCommentFormsAndNothingElse() {
        let source = """
            /// A type.
            ///
            /// ```swift
            /// let a = 1
            ///     + 2
            /// ```
            /// ```text
            /// not = swift
            /// ```
            // ```swift
            // a plain comment's block is no documentation
            // ```
            struct A {
                /**
                 An old-style comment.
                 ```swift
                 let b = 2
                 ```
                 */
                var b: Int
            }
            """
        let blocks = DocumentationScan.blocks(inDocCommentsOf: source, path: "A.swift")
        #expect(blocks.map(\.location) == ["A.swift#1", "A.swift#2"])
        #expect(blocks.map(\.line) == [3, 16])
        #expect(blocks.first?.lines == ["let a = 1", "    + 2"])
        #expect(blocks.last?.lines == ["let b = 2"])
    }

    @Test func aBlockMatchesOnlyVerbatimUnderOneIndentation() {
        let block = ["if ok {", "    run()", "", "}"]
        let compiled = ["func f() {", "    if ok {", "        run()", "    ", "    }", "}"]
        #expect(DocumentationScan.occurrence(of: block, in: compiled) == 1)
        let changed = ["func f() {", "    if ok {", "        run(1)", "", "    }", "}"]
        #expect(DocumentationScan.occurrence(of: block, in: changed) == nil)
        let reindented = ["func f() {", "    if ok {", "    run()", "", "    }", "}"]
        #expect(DocumentationScan.occurrence(of: block, in: reindented) == nil)
        let commentedOut = ["// if ok {", "//     run()", "", "// }"]
        #expect(DocumentationScan.occurrence(of: block, in: commentedOut) == nil)
    }
}
