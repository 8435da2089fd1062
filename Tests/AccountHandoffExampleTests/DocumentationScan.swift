import Foundation

/// One ```swift block of the documentation: where it is, and its lines without the comment
/// prefix and without the indentation its lines share.
struct DocumentationBlock: CustomStringConvertible {
    /// `path#n`: the file relative to the repository and the block's number in it, from 1.
    let location: String
    /// The line of the file where the block's fence opens, from 1.
    let line: Int
    let lines: [String]

    var description: String { "\(location) (line \(line))" }
}

/// Finds the documentation's Swift examples and the compiled files that must hold them.
enum DocumentationScan {
    /// The repository's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every ```swift block in a `///` or `/** */` doc comment of a Swift file under Sources/
    /// (what ships) and Harness/ (the test world, the vector generator, the probes).
    static func sourceBlocks() throws -> [DocumentationBlock] {
        try (files(under: "Sources", ending: ".swift") + files(under: "Harness", ending: ".swift")).flatMap { path in
            try blocks(inDocCommentsOf: read(path), path: path)
        }
    }

    /// Every ```swift block of every Markdown file: README.md, Spec/, the DocC catalogs, docs/,
    /// and the other notes of the repository.
    static func markdownBlocks() throws -> [DocumentationBlock] {
        try files(under: "", ending: ".md").flatMap { path in
            blocks(inMarkdown: try read(path).components(separatedBy: "\n").enumerated().map { ($0.offset + 1, $0.element) }, path: path)
        }
    }

    /// The lines of every Swift file of the example test target.
    static func compiledFiles() throws -> [(path: String, lines: [String])] {
        try files(under: "Tests/AccountHandoffExampleTests", ending: ".swift").map { path in
            (path, try read(path).components(separatedBy: "\n"))
        }
    }

    // MARK: Extraction

    /// The doc comments of a Swift file, as Markdown lines with their line numbers: `///`
    /// lines without the `///` and one space after it, and the lines of `/** ... */` without
    /// a leading `*`.
    static func docCommentLines(of source: String) -> [[(Int, String)]] {
        var comments: [[(Int, String)]] = []
        var current: [(Int, String)] = []
        var inBlockComment = false
        func close() {
            if !current.isEmpty { comments.append(current) }
            current = []
        }
        for (index, raw) in source.components(separatedBy: "\n").enumerated() {
            let number = index + 1
            let trimmed = raw.drop { $0 == " " || $0 == "\t" }
            if inBlockComment {
                // Lines keep their indentation (a block's own is removed later), unless they
                // start with the `*` of a decorated comment.
                var text = Substring(raw.reversed().drop { $0 == " " }.reversed())
                let ends = text.hasSuffix("*/")
                if ends { text = text.dropLast(2) }
                let content = text.drop { $0 == " " || $0 == "\t" }
                if content.hasPrefix("*") {
                    text = content.dropFirst()
                    if text.hasPrefix(" ") { text = text.dropFirst() }
                }
                current.append((number, String(text)))
                if ends {
                    inBlockComment = false
                    close()
                }
            } else if trimmed.hasPrefix("///") {
                var text = trimmed.dropFirst(3)
                if text.hasPrefix(" ") { text = text.dropFirst() }
                current.append((number, String(text)))
            } else if trimmed.hasPrefix("/**"), !trimmed.hasPrefix("/**/") {
                close()
                var text = trimmed.dropFirst(3)
                if text.hasSuffix("*/") {
                    text = text.dropLast(2)
                    current.append((number, String(text)))
                    close()
                } else {
                    inBlockComment = true
                    if !text.trimmingCharacters(in: .whitespaces).isEmpty { current.append((number, String(text))) }
                }
            } else {
                close()
            }
        }
        close()
        return comments
    }

    /// The ```swift blocks of a Swift file's doc comments.
    static func blocks(inDocCommentsOf source: String, path: String) -> [DocumentationBlock] {
        var found: [DocumentationBlock] = []
        for comment in docCommentLines(of: source) {
            for block in blocks(inMarkdown: comment, path: path) {
                found.append(DocumentationBlock(location: "\(path)#\(found.count + 1)", line: block.line, lines: block.lines))
            }
        }
        return found
    }

    /// The ```swift blocks of Markdown lines (with their line numbers), numbered from 1. Blocks
    /// of other languages are skipped whole, so a fence inside them opens nothing.
    static func blocks(inMarkdown lines: [(Int, String)], path: String) -> [DocumentationBlock] {
        var found: [DocumentationBlock] = []
        var open: (line: Int, fence: String, isSwift: Bool, lines: [String])?
        for (number, line) in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let current = open {
                if trimmed == current.fence {
                    if current.isSwift {
                        found.append(DocumentationBlock(location: "\(path)#\(found.count + 1)", line: current.line,
                                                        lines: withoutCommonIndentation(current.lines)))
                    }
                    open = nil
                } else {
                    open?.lines.append(line)
                }
            } else if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                let fence = String(trimmed.prefix { $0 == trimmed.first })
                let language = trimmed.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
                let isSwift = language.split(separator: " ").first?.lowercased() == "swift"
                open = (number, fence, isSwift, [])
            }
        }
        return found
    }

    /// `lines` without the leading spaces they all share (blank lines do not count), and
    /// without trailing spaces.
    static func withoutCommonIndentation(_ lines: [String]) -> [String] {
        let trimmedEnds = lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        let indents = trimmedEnds.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }
        let common = indents.min() ?? 0
        return trimmedEnds.map { $0.isEmpty ? "" : String($0.dropFirst(common)) }
    }

    // MARK: Matching

    /// Where `block` appears verbatim in `lines`, every line indented by the same spaces (blank
    /// lines may hold spaces): the index of its first line, or `nil`.
    static func occurrence(of block: [String], in lines: [String], from start: Int = 0) -> Int? {
        guard let first = block.first, !first.isEmpty, block.count <= lines.count else { return nil }
        let candidates = lines.indices.dropFirst(start).dropLast(block.count - 1)
        return candidates.first { index in
            let line = lines[index]
            guard line.hasSuffix(first) else { return false }
            let indent = line.dropLast(first.count)
            guard indent.allSatisfy({ $0 == " " }) else { return false }
            return zip(block, lines[index..<index + block.count]).allSatisfy { expected, actual in
                let actual = String(actual.reversed().drop { $0 == " " }.reversed())
                return expected.isEmpty ? actual.isEmpty : actual == indent + expected
            }
        }
    }

    // MARK: Files

    /// Folders that hold no documentation and may hold many files: build products and the
    /// fuzzers' working corpus (both ignored by git).
    static let ignoredFolders: Set<String> = [".build", "corpus-work"]

    /// Repository-relative paths of the files under `folder` ("" for the whole repository)
    /// whose names end with `suffix`, sorted; ``ignoredFolders``, hidden folders and the fuzz
    /// package's links to Sources/ are skipped.
    static func files(under folder: String, ending suffix: String) throws -> [String] {
        let base = folder.isEmpty ? root : root.appendingPathComponent(folder)
        let keys: [URLResourceKey] = [.isDirectoryKey, .isSymbolicLinkKey]
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: keys,
                                                           options: [.skipsHiddenFiles]) else { return [] }
        var found: [String] = []
        let rootPath = root.standardizedFileURL.path + "/"
        for case let url as URL in walker {
            let values = try url.resourceValues(forKeys: Set(keys))
            if values.isSymbolicLink == true || ignoredFolders.contains(url.lastPathComponent) {
                walker.skipDescendants()
                continue
            }
            let path = url.standardizedFileURL.path
            if values.isDirectory != true, path.hasSuffix(suffix), path.hasPrefix(rootPath) {
                found.append(String(path.dropFirst(rootPath.count)))
            }
        }
        return found.sorted()
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
}
