import Foundation
import Testing
import TestProcesses

/// The help, the README and the program agree: every option a command's help lists is in its
/// usage line and is accepted by the command, every command's help ends with the exit codes,
/// and the README's copies of help texts are the program's, byte for byte.
@Suite(.startsProcesses) struct CLIHelpAgreementTests {
    static let commands = ["send", "receive", "accounts", "inspect", "qr", "demo", "bench", "vectors"]

    @Test(arguments: commands)
    func everyListedOptionIsInTheUsageLineAndAccepted(command: String) async throws {
        let help = try await HandoffProcess.run(["help", command])
        #expect(help.status == 0)
        let text = help.stdout
        let program = HandoffProcess.developerCommands.contains(command) ? "handoff-dev" : "handoff"
        let usage = text.components(separatedBy: "\n\n")[0]
        #expect(usage.hasPrefix("Usage: \(program) \(command)"))
        let options = Self.listedOptions(in: text)
        #expect(!options.isEmpty, "\(command) lists no options")
        for (name, value) in options {
            let synopsis = value.map { "\(name) \($0)" } ?? name
            #expect(usage.contains(synopsis), "the usage line of \(command) lacks \(synopsis)")
            // The parser reads options in order: an unknown one is named first, a known one
            // is passed over and the deliberately unknown one after it is named instead.
            let probe = try await HandoffProcess.run([command, name] + (value == nil ? [] : ["x"]) + ["--no-such-option"])
            #expect(probe.status == 64)
            #expect(probe.stderr.hasPrefix("The option --no-such-option is not known to '\(program) \(command)'."),
                    "\(command) does not accept \(name): \(probe.stderr)")
        }
        if program == "handoff" {
            #expect(text.hasSuffix(try await Self.exitCodes()), "the help of \(command) does not end with the exit codes")
        }
    }

    /// The README's copies (a fenced block whose first line is `$ handoff help ...` or
    /// `$ handoff --version`) are exactly what the program prints.
    @Test func theReadmesCopiesAreTheProgramsOutput() async throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let copies = Self.copies(in: readme)
        #expect(copies.contains { $0.arguments == ["help"] }, "the README has no copy of 'handoff help'")
        for copy in copies {
            let result = try await HandoffProcess.run(copy.arguments)
            #expect(result.status == 0)
            #expect(result.stdout == copy.text, "the README's copy of 'handoff \(copy.arguments.joined(separator: " "))' differs")
        }
    }

    /// What `receive --allow-plaintext` allows and what a transfer refuses are each said once
    /// and truly: the help's entry and the refusal of an account without TLS name the same
    /// case (a STARTTLS server that offers no STARTTLS), and neither claims plaintext is never
    /// used.
    @Test func thePlaintextOptionAndTheRefusalSayTheSame() async throws {
        let help = try await HandoffProcess.run(["help", "receive"])
        #expect(help.status == 0)
        let entry = try #require(Self.optionText("--allow-plaintext", in: help.stdout))
        #expect(entry == "Check a STARTTLS account by logging in without TLS when its server offers no STARTTLS (never by default: the password would cross the network readable); a TLS account, an untrusted certificate and a failed TLS handshake are still refused.")

        let scratch = try Scratch(account: Scratch.accountJSON.replacingOccurrences(of: "\"tls\"", with: "\"none\""))
        defer { scratch.remove() }
        let refused = try await HandoffProcess.run(scratch.sendArguments())
        #expect(refused.status == 65)
        #expect(refused.stderr == "The account's imapSecurity \"none\" is not a setting this tool knows: use \"tls\" (TLS from the first byte, usually port 993) or \"startTLS\" (usually port 143). An account that logs in without TLS cannot be sent at all; the receiving device's --allow-plaintext only lets it check a STARTTLS account whose server offers no STARTTLS.\n")
        for text in [entry, refused.stderr] {
            #expect(text.contains("server offers no STARTTLS"))
            #expect(!text.contains("not supported"))
        }
    }

    // MARK: Reading the texts

    /// `(--store, DIR)` and `(--lan, nil)` for every line of the Options section.
    static func listedOptions(in help: String) -> [(String, String?)] {
        guard let section = help.components(separatedBy: "\nOptions:\n").dropFirst().first else { return [] }
        return section.components(separatedBy: "\n\n")[0].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  --") else { return nil }
            let words = line.dropFirst(2).split(separator: " ", omittingEmptySubsequences: false)
            let name = String(words[0])
            let value = words.count > 1 && !words[1].isEmpty && words[1].allSatisfy({ $0.isUppercase || $0.isNumber || $0 == ":" }) ? String(words[1]) : nil
            return (name, value)
        }
    }

    /// The text of `option`'s entry in a help's Options section, its wrapped lines joined.
    static func optionText(_ option: String, in help: String) -> String? {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  \(option) ") }) else { return nil }
        let continued = lines[(start + 1)...].prefix { $0.hasPrefix("    ") }
        return ([lines[start].dropFirst(2 + option.count)] + continued)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    static func exitCodes() async throws -> String {
        let overview = try await HandoffProcess.run(["help"]).stdout
        let codes = try #require(overview.range(of: "Exit codes:\n"))
        return String(overview[codes.lowerBound...])
    }

    struct Copy {
        let arguments: [String]
        let text: String
    }

    static func copies(in readme: String) -> [Copy] {
        var copies: [Copy] = []
        var lines = readme.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let fence = lines.firstIndex(where: { $0.hasPrefix("```") }) {
            lines = lines[(fence + 1)...]
            guard let end = lines.firstIndex(where: { $0.hasPrefix("```") }) else { break }
            let block = lines[..<end]
            lines = lines[(end + 1)...]
            guard let first = block.first, first.hasPrefix("$ handoff help") || first == "$ handoff --version" else { continue }
            let arguments = first.dropFirst("$ handoff ".count).split(separator: " ").map(String.init)
            copies.append(Copy(arguments: arguments, text: block.dropFirst().joined(separator: "\n") + "\n"))
        }
        return copies
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
