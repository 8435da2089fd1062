import Foundation

/// The modules whose public errors reach people, read from `Package.swift`: every regular
/// `.target` except those the manifest marks `// Not a product:` (test support, vectors,
/// the simulated world, the throwaway servers). Executables (the `handoff` CLI, probes),
/// system libraries and test targets are not `.target`s.
struct ShippedModules {
    /// The package's root directory.
    let root: URL
    /// The shipped targets, in manifest order.
    let targets: [String]
    /// The targets of the `.library` products.
    let libraryProductTargets: Set<String>

    init(root: URL = ShippedModules.packageRoot()) throws {
        self.root = root
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        targets = Self.targets(in: manifest)
        libraryProductTargets = Self.libraryProductTargets(in: manifest)
    }

    /// `Tests/AccountHandoffErrorSentenceTests/Scanner/ShippedModules.swift` -> the root.
    static func packageRoot(file: String = #filePath) -> URL {
        URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The Swift files of `target`, relative to the root, sorted.
    func swiftFiles(of target: String) -> [String] {
        let folder = root.appendingPathComponent("Sources/\(target)")
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { "Sources/\(target)/\($0)" }
    }

    static func targets(in manifest: String) -> [String] {
        let lines = manifest.components(separatedBy: "\n")
        var found: [String] = []
        for (number, line) in lines.enumerated() where line.contains(".target(") {
            let declaration = ([line] + lines.dropFirst(number + 1).prefix(1)).joined(separator: " ")
            guard let name = firstCapture(#"\.target\(\s*name:\s*"([^"]+)""#, in: declaration) else { continue }
            var comments: [String] = []
            var above = number - 1
            while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                comments.append(lines[above].trimmingCharacters(in: .whitespaces))
                above -= 1
            }
            if comments.contains(where: { $0.hasPrefix("// Not a product") }) { continue }
            found.append(name)
        }
        return found
    }

    static func libraryProductTargets(in manifest: String) -> Set<String> {
        let products = matches(#"\.library\(\s*name:\s*"[^"]+"\s*,\s*targets:\s*\[([^\]]*)\]"#, in: manifest)
        return Set(products.flatMap { list in matches(#""([^"]+)""#, in: list) })
    }

    private static func firstCapture(_ pattern: String, in text: String) -> String? { matches(pattern, in: text).first }

    private static func matches(_ pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
