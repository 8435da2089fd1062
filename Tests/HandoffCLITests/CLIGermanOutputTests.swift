import Foundation
import Testing

/// Under `LANG=de_DE.UTF-8` the command line speaks German: its own sentences come from its
/// String Catalog, the library's from theirs. The checks are built from the shipped catalogs
/// (every key, both languages), not from sentences written here.
@Suite(.startsProcesses) struct CLIGermanOutputTests {
    static let german = ["LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]

    /// A whole transfer between `send` and `receive` in German, with `--no-local-auth` and
    /// through the login-password gate (PAM under pam_wrapper): every line either side prints
    /// is a German catalog sentence (with its arguments) or a line of the framed account block
    /// under a German label, and no line holds a piece of an English catalog sentence.
    @Test(arguments: [false, true]) func aWholeTransferPrintsNoEnglishLine(gated: Bool) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let catalogs = try ShippedSentences()
        let gate = gated ? try CLIGate() : nil
        func start(_ arguments: [String], writing input: String? = nil) async throws -> HandoffProcess {
            if let gate { return try await gate.start(arguments, writing: input, environment: Self.german) }
            let process = try HandoffProcess(arguments, environment: Self.german)
            if let input { process.write(input) }
            return process
        }
        let sender = try await start(scratch.sendArguments(gated: gated))
        let codeLine = try #require(await sender.waitForOutput(containing: "AH:"), "the sender printed no code: \(sender.stderrSoFar)")
        let code = try #require(codeLine.split(separator: "\n").compactMap { line in line.range(of: "AH:").map { String(line[$0.lowerBound...]) } }.first)
        let receiver = try await start(scratch.receiveArguments(gated: gated), writing: code + "\n")
        let shortCodeMarker = try #require(catalogs.germanPrefix(of: "receive.codeReady"))
        let shown = try #require(await receiver.waitForOutput(containing: shortCodeMarker))
        let digits = try #require(shown.range(of: shortCodeMarker).map { String(shown[$0.upperBound...].prefix(7)) })
        #expect(await sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        sender.write(digits + "\n")
        #expect(await receiver.waitForOutput(containing: Asked.importQuestion) != nil)
        receiver.write("yes\n")
        if gated {
            let marker = try #require(catalogs.german["gate.marker"])
            for side in [receiver, sender] {
                #expect(await side.waitForOutput(containing: marker, count: 1))
                side.write(CLIGate.password + "\n")
            }
        }
        let received = await receiver.finish()
        let sent = await sender.finish()
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.status == 0, "\(sent.stderr)")
        var failures: [String] = []
        for (side, result) in [("send", sent), ("receive", received)] {
            for line in (result.stdout + result.stderr).split(separator: "\n").map(String.init) {
                if let problem = catalogs.problem(withGermanLine: line) { failures.append("\(side): \(problem): \(line)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) lines are not German:\n\(failures.joined(separator: "\n"))")
    }

    /// A library error that the CLI prints is said in the CLI's language too (its English
    /// `description` never reaches the terminal): an address this machine does not have.
    @Test func aLibraryErrorIsSaidInGerman() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let catalogs = try ShippedSentences()
        let result = try await HandoffProcess.run(scratch.sendArguments(["--address", "198.51.100.254", "--lan"]), environment: Self.german)
        #expect(result.status == 64, "\(result.stderr)")
        let english = try #require(catalogs.english["AccountHandoffTransport:listening.notOnThisMachine"])
        let german = try #require(catalogs.german["AccountHandoffTransport:listening.notOnThisMachine"])
        #expect(result.stderr.contains(try #require(ShippedSentences.literals(german).first)), "\(result.stderr)")
        #expect(!result.stderr.contains(try #require(ShippedSentences.literals(english).first)), "\(result.stderr)")
        let lines = (result.stdout + result.stderr).split(separator: "\n").map(String.init)
        let failures = lines.compactMap { line in catalogs.problem(withGermanLine: line).map { "\($0): \(line)" } }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// `handoff help` under `LANG=de`: the overview and the exit codes are the catalog's German.
    @Test func theHelpOverviewIsGerman() async throws {
        let catalogs = try ShippedSentences()
        let result = try await HandoffProcess.run(["help"], environment: Self.german)
        #expect(result.status == 0)
        let overview = try #require(catalogs.german["help.overview"])
        #expect(result.stdout.hasPrefix(overview + "\n\n" + (catalogs.german["help.exitCodes"] ?? "?") + "\n"))
        for key in catalogs.german.keys where key.hasPrefix("exit.") {
            #expect(result.stdout.contains(catalogs.german[key]!), "\(key)")
        }
        let english = try #require(catalogs.english["help.overview"])
        #expect(!result.stdout.contains(english))
    }

    /// `handoff help COMMAND` under `LANG=de`: the page starts with the German usage heading,
    /// holds every German sentence of the command's manual (`manual.COMMAND.*`, wrapped), and
    /// no piece of any English catalog sentence.
    @Test(arguments: ["send", "receive", "accounts", "inspect", "qr", "help"])
    func everyHelpPageIsGerman(command: String) async throws {
        let catalogs = try ShippedSentences()
        let result = try await HandoffProcess.run(["help", command], environment: Self.german)
        #expect(result.status == 0)
        let usage = try #require(catalogs.german["manual.heading.usage"])
        #expect(result.stdout.hasPrefix("\(usage) handoff \(command)"), "\(result.stdout.prefix(80))")
        let page = ShippedSentences.flattened(result.stdout)
        #expect(catalogs.englishPiece(in: page) == nil, "\(catalogs.englishPiece(in: page) ?? "")")
        let sentences = catalogs.german.filter { $0.key.hasPrefix("manual.\(command).") && !$0.key.contains(".refused.") }
        #expect(!sentences.isEmpty)
        for (key, sentence) in sentences {
            #expect(page.contains(ShippedSentences.flattened(sentence)), "\(key) is not on the page")
        }
    }
}

/// Every shipped catalog's sentences (Sources/*/Resources/Localizable.xcstrings), read as
/// text, and the checks of a printed line against them.
struct ShippedSentences {
    /// Key -> sentence, of all catalogs (library keys and the CLI's do not collide in use).
    var english: [String: String] = [:]
    var german: [String: String] = [:]
    private var germanPatterns: [NSRegularExpression] = []
    private var englishPieces: [String] = []
    private var germanLabels: [String] = []

    static let placeholder = try! NSRegularExpression(pattern: #"%(?:[1-9]\$)?(?:@|lld)"#)

    init() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let file = sources.appendingPathComponent(module).appendingPathComponent("Resources/Localizable.xcstrings")
            guard let data = try? Data(contentsOf: file) else { continue }
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let strings = try #require(root["strings"] as? [String: [String: Any]])
            for (key, entry) in strings {
                let localizations = try #require(entry["localizations"] as? [String: [String: [String: String]]])
                english[module + ":" + key] = localizations["en"]?["stringUnit"]?["value"]
                german[module + ":" + key] = localizations["de"]?["stringUnit"]?["value"]
                if module == "HandoffCLI" {
                    english[key] = english[module + ":" + key]
                    german[key] = german[module + ":" + key]
                }
            }
        }
        for (key, sentence) in german where key.contains(":") {
            let pieces = Self.literals(sentence)
            // A whole-line pattern needs words of its own, not just a placeholder and a colon.
            guard pieces.joined().count >= 8 else { continue }
            let pattern = "^" + pieces.map(NSRegularExpression.escapedPattern(for:)).joined(separator: ".*") + "$"
            germanPatterns.append(try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]))
        }
        for (key, sentence) in english where key.contains(":") {
            // A piece long enough to be English words, and not shared with its German sentence.
            let germanSentence = german[key] ?? ""
            englishPieces += Self.literals(sentence).filter { $0.count >= 20 && $0.contains(" ") && !germanSentence.contains($0) }
        }
        germanLabels = german.filter { $0.key.hasPrefix("offer.label.") }.map(\.value)
    }

    /// The literal text of a sentence, split at its placeholders.
    static func literals(_ sentence: String) -> [String] {
        let range = NSRange(sentence.startIndex..., in: sentence)
        var pieces: [String] = []
        var start = sentence.startIndex
        for match in placeholder.matches(in: sentence, range: range) {
            let matched = Range(match.range, in: sentence)!
            pieces.append(String(sentence[start..<matched.lowerBound]))
            start = matched.upperBound
        }
        pieces.append(String(sentence[start...]))
        return pieces.map { $0.replacingOccurrences(of: "%%", with: "%") }
    }

    /// The German sentence of a CLI key up to its first placeholder.
    func germanPrefix(of key: String) -> String? { german[key].flatMap { Self.literals($0).first } }

    /// `text` with every run of white space (line breaks and indents of wrapped text) as one space.
    static func flattened(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The first piece of an English catalog sentence in `text`, if any.
    func englishPiece(in text: String) -> String? { englishPieces.first(where: text.contains) }

    /// Why `line` is not German output, or nil when it is.
    func problem(withGermanLine line: String) -> String? {
        if let piece = englishPiece(in: line) { return "English \"\(piece)\"" }
        // A question's line ends with its answer marker and the piped answer.
        let text = line.range(of: #" \[[^\[\]]+\] ?[^\[\]]*$"#, options: .regularExpression).map { String(line[..<$0.lowerBound]) } ?? line
        if text.hasPrefix("  │ ") {
            let field = text.dropFirst("  │ ".count)
            return germanLabels.contains(where: { field.hasPrefix($0) || field.hasPrefix(" ") }) ? nil : "an account field without a German label"
        }
        let range = NSRange(text.startIndex..., in: text)
        return germanPatterns.contains(where: { $0.firstMatch(in: text, range: range) != nil }) ? nil : "no German catalog sentence"
    }
}
