import AccountHandoff
import Foundation
import HandoffCLI
import Testing
import TestProcesses

/// The library's sentences may tell an app's person to scan the QR code; the person at this
/// terminal pastes the code's text. Every sentence of the libraries `handoff` links that says
/// "scan" (or, in German, "scannen") is found in their sources and String Catalogs, in every
/// language, and what the CLI prints of it (``TerminalWording``, through which every printed
/// line passes) must not tell the person to scan.
@Suite(.startsProcesses) struct CLIPastingWordsTests {
    /// The libraries whose sentences `handoff receive` and `handoff send` print.
    /// `AccountHandoffScan` is left out: its sentences are shown only after `--scan` or
    /// `--camera`, where the person does scan.
    static let linkedLibraries = ["AccountHandoff", "AccountHandoffQR", "AccountHandoffTransport", "AccountHandoffImport",
                                  "AccountHandoffReferenceStore", "AccountHandoffIMAPValidation", "AccountHandoffSecretService",
                                  "AccountHandoffLocalAuthentication", "AccountHandoffThunderbird"]
    /// "scan", "scans", "scanned" or "scanning", or German "scannen", "scannt", "gescannt" and
    /// their kin, as a word (the option `--scan`, named where a photo is the other way, is no
    /// instruction to scan).
    static func saysScan(_ text: String) -> Bool {
        text.replacingOccurrences(of: "--scan", with: "").contains(/\b(ge)?[Ss]can(s|ned|ning|nen|nt|ne|nst|nte|nten)?\b/)
    }

    @Test func noLibrarySentenceTheCLIPrintsTellsItsPersonToScan() throws {
        let sentences = try Self.literals(in: Self.linkedLibraries).filter { $0.text.contains(" ") && Self.saysScan($0.text) }
        print("Library sentences that say scan: \(sentences.count)")
        #expect(sentences.count >= 10, "the scan of the sources found too few sentences that say scan: \(sentences.count)")
        let german = sentences.filter { $0.place.hasSuffix(":de") }
        #expect(german.count >= 6, "the catalogs hold too few German sentences that say scannen: \(german.count)")
        let stillScanning = sentences.filter { Self.saysScan(TerminalWording.pasting($0.text)) }
        #expect(stillScanning.isEmpty, "printed as: \(stillScanning.map { "\($0.place): \(TerminalWording.pasting($0.text))" })")
        // Every replacement is still a phrase of the libraries (a reworded library sentence
        // leaves its replacement behind, and the check above then names the sentence).
        for (phrase, _) in TerminalWording.replacements {
            #expect(sentences.contains { $0.text.contains(phrase) }, "no library sentence says \"\(phrase)\" any more")
        }
    }

    /// Under a German message locale the library's sentence comes in German, in this tool's
    /// words: a pasted code whose rendezvous is too long asks the person to paste the code
    /// again, never to scan it.
    @Test func aPastedInvalidCodeIsExplainedInGermanWithoutScanning() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var binary = try Scratch.validCode().payload.binary
        binary[70] = 33
        let text = DecimalChunks.encode(binary, prefixedWith: SessionPayload.textPrefix)
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: text + "\n",
                                                  environment: CLILanguageTests.locale(lang: "de_DE.UTF-8"))
        #expect(result.status == 65)
        #expect(result.stderr == "Der Übertragungscode ist ungültig. Dieser Code ist kein gültiger AccountHandoff-Code; fügen Sie den Code, den das sendende Gerät anzeigt, noch einmal ein (seine ganze Zeile, oder fotografieren Sie ihn mit --scan noch einmal).\n")
        #expect(!Self.saysScan(result.stderr), "\(result.stderr)")
        #expect(await scratch.storeSnapshot() == [:])
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
    /// form of "scan" does), outside comments, where an interpolation splits a literal into
    /// pieces; and every sentence of each module's String Catalog in every language (its place
    /// ends in `:en` or `:de`).
    static func literals(in modules: [String]) throws -> [Literal] {
        var found: [Literal] = []
        for module in modules {
            found += try catalogSentences(of: module)
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

    /// Every sentence of `module`'s `Resources/Localizable.xcstrings`, in every language; none
    /// when the module has no catalog.
    static func catalogSentences(of module: String) throws -> [Literal] {
        let catalog = repository.appendingPathComponent("Sources/\(module)/Resources/Localizable.xcstrings")
        guard FileManager.default.fileExists(atPath: catalog.path) else { return [] }
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: catalog)) as? [String: Any])
        let strings = try #require(root["strings"] as? [String: [String: Any]])
        var found: [Literal] = []
        for (key, entry) in strings {
            let localizations = try #require(entry["localizations"] as? [String: [String: [String: String]]], "\(module): \(key)")
            for (language, unit) in localizations {
                let text = try #require(unit["stringUnit"]?["value"], "\(module): \(key) \(language)")
                found.append(Literal(text: text, place: "\(module)/Localizable.xcstrings:\(key):\(language)"))
            }
        }
        return found
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
