import Foundation
import Testing

/// `Vectors/COVERAGE.md` maps every rule of `Spec/` to vectors; every reference in it must
/// name a vector that exists, so the checklist cannot rot when vectors are renamed.
@Suite struct CoverageTests {
    /// Every backtick-quoted reference: `session:NAME`, `FILE#LIST#NAME` or `FILE#LIST`.
    static func references() throws -> [String] {
        let text = try String(contentsOf: VectorFiles.directory.appendingPathComponent("COVERAGE.md"), encoding: .utf8)
        return text.components(separatedBy: "`").enumerated().compactMap { index, part in
            guard index % 2 == 1 else { return nil }
            let reference = part.replacingOccurrences(of: "\\|", with: "|")
            return reference.hasPrefix("session:") || reference.contains(".json#") ? reference : nil
        }
    }

    @Test func everyReferenceNamesAVector() throws {
        let references = try Self.references()
        #expect(references.count >= 300)
        var files: [String: [String: Any]] = [:]
        for reference in references {
            let (file, list, name): (String, String, String?)
            if reference.hasPrefix("session:") {
                (file, list, name) = ("sessions.json", "sessions", String(reference.dropFirst("session:".count)))
            } else {
                let parts = reference.split(separator: "#", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
                guard parts.count >= 2 else {
                    Issue.record("malformed reference \(reference)")
                    continue
                }
                (file, list, name) = (parts[0], parts[1], parts.count == 3 ? parts[2] : nil)
            }
            if files[file] == nil { files[file] = try VectorFiles.load(file) }
            let entries = try #require(files[file]?[list] as? [[String: Any]], "\(reference): no list \(list) in \(file)")
            if let name {
                #expect(entries.contains { $0["name"] as? String == name }, "\(reference): no such vector")
            }
        }
    }

    @Test func everySessionIsReferenced() throws {
        let referenced = Set(try Self.references().filter { $0.hasPrefix("session:") }.map { String($0.dropFirst("session:".count)) })
        let sessions = try VectorFiles.load("sessions.json").objects("sessions").map { try $0.string("name") }
        let missing = sessions.filter { !referenced.contains($0) }
        #expect(missing.isEmpty, "COVERAGE.md does not mention these sessions: \(missing)")
    }
}
