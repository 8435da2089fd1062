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
