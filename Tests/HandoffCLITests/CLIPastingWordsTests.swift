import Foundation
import HandoffCLI
import Testing

/// The library's sentences may tell an app's person to scan the QR code; the person at this
/// terminal pastes the code's text. Every sentence of the libraries `handoff` links that says
/// "scan" is found in their sources, and what the CLI prints of it (``TerminalWording``, through
/// which every printed line passes) must not tell the person to scan.
@Suite struct CLIPastingWordsTests {
    /// The libraries whose sentences `handoff receive` and `handoff send` print.
    /// `AccountHandoffScan` is left out: its sentences are shown only after `--scan` or
    /// `--camera`, where the person does scan.
    static let linkedLibraries = ["AccountHandoff", "AccountHandoffQR", "AccountHandoffTransport", "AccountHandoffImport",
                                  "AccountHandoffReferenceStore", "AccountHandoffIMAPValidation", "AccountHandoffSecretService",
                                  "AccountHandoffLocalAuthentication", "AccountHandoffThunderbird"]
    /// "scan", "scans", "scanned" or "scanning" as a word (the option `--scan`, named where a
    /// photo is the other way, is no instruction to scan).
    static func saysScan(_ text: String) -> Bool {
        text.replacingOccurrences(of: "--scan", with: "").contains(/\b[Ss]can(s|ned|ning)?\b/)
    }

    @Test func noLibrarySentenceTheCLIPrintsTellsItsPersonToScan() throws {
        let sentences = try Self.literals(in: Self.linkedLibraries).filter { $0.text.contains(" ") && Self.saysScan($0.text) }
        print("Library sentences that say scan: \(sentences.count)")
        #expect(sentences.count >= 10, "the scan of the sources found too few sentences that say scan: \(sentences.count)")
        let stillScanning = sentences.filter { Self.saysScan(TerminalWording.pasting($0.text)) }
        #expect(stillScanning.isEmpty, "printed as: \(stillScanning.map { "\($0.place): \(TerminalWording.pasting($0.text))" })")
        // Every replacement is still a phrase of the libraries (a reworded library sentence
        // leaves its replacement behind, and the check above then names the sentence).
        for (phrase, _) in TerminalWording.replacements {
            #expect(sentences.contains { $0.text.contains(phrase) }, "no library sentence says \"\(phrase)\" any more")
        }
    }

    /// The list above is the CLI's: `HandoffCLI`'s Swift dependencies in `Package.swift`.
    @Test func theLibrariesAreTheCLIs() throws {
        let manifest = try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try #require(manifest.firstRange(of: /name: "HandoffCLI",\s*dependencies: \[([^\]]*)\]/)?.lowerBound)
        let block = try #require(manifest[target...].firstMatch(of: /dependencies: \[([^\]]*)\]/)?.output.1)
        let names = block.matches(of: /"([A-Za-z]+)"/).map { String($0.output.1) }
        #expect(Set(names) == Set(Self.linkedLibraries))
    }

    struct Literal {
        let text: String
        let place: String
    }

    /// The string literals of every Swift file of `modules` on lines that hold "can" (every
    /// form of "scan" does), outside comments; an interpolation splits a literal into pieces.
    static func literals(in modules: [String]) throws -> [Literal] {
        var found: [Literal] = []
        for module in modules {
            let folder = repository.appendingPathComponent("Sources").appendingPathComponent(module)
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            for file in files {
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                for (number, line) in lines.enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    guard line.contains("can"), !code.hasPrefix("//"), !code.hasPrefix("*"), !code.hasPrefix("/*") else { continue }
                    for match in line.matches(of: /"((?:[^"\\]|\\.)*)"/) {
                        found.append(Literal(text: String(match.output.1), place: "\(module)/\(file.lastPathComponent):\(number + 1)"))
                    }
                }
            }
        }
        return found
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
