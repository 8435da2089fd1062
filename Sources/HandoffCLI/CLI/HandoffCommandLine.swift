import AccountHandoff
import Foundation

/// Dispatches `handoff <command> ...` and turns every error into its sentence and exit code.
package enum HandoffCommandLine {
    /// Answers what needs no session and nothing asynchronous (a missing command, the version,
    /// the help); `nil` for a command that must ``run(_:)``.
    package static func runWithoutSession(_ arguments: [String]) -> ExitCode? {
        let console = Console()
        guard let command = arguments.first else {
            console.error(sentenceCatalog.sentence("cli.needsCommand", in: .cli))
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if command == "--version" {
            console.line(HelpText.version)
            return .success
        }
        if ["help", "--help", "-h"].contains(command) { return help(rest.first, console: console) }
        if rest.contains("--help") || rest.contains("-h") { return help(command, console: console) }
        return nil
    }

    /// Runs one command line.
    package static func run(_ arguments: [String]) async -> ExitCode {
        if let code = runWithoutSession(arguments) { return code }
        let console = Console()
        let input = StandardInput()
        let command = arguments[0]
        let rest = Array(arguments.dropFirst())
        do throws(CLIError) {
            switch command {
            case "send": return try await SendCommand.run(rest, console: console, input: input)
            case "receive": return try await ReceiveCommand.run(rest, console: console, input: input)
            // These commands block throughout (standard input, files, the store).
            case "accounts": return try await blockingStep { () throws(CLIError) in try AccountsCommand.run(rest, console: console) }
            case "inspect": return try await blockingStep { () throws(CLIError) in try InspectCommand.run(rest, console: console, input: input) }
            case "qr": return try await blockingStep { () throws(CLIError) in try QRCommand.run(rest, console: console, input: input) }
            default:
                throw CLIError.usage(sentenceCatalog.sentence("cli.unknownCommand", .text(ArgumentSpecification.name(of: command)), .text(suggestion(for: command)),
                                                              in: .cli), command: nil)
            }
        } catch {
            console.error(error.message)
            return error.exitCode
        }
    }

    /// The commands a person types.
    static let commands = ["send", "receive", "accounts", "inspect", "qr", "help"]

    /// " Did you mean 'handoff receive'?" for a slip of at most two letters, else "".
    static func suggestion(for typed: String) -> String {
        let word = typed.lowercased()
        guard word.count <= 20,
              let closest = commands.map({ ($0, editDistance(word, $0)) }).min(by: { $0.1 < $1.1 }), closest.1 <= (word.count >= 5 ? 2 : 1) else { return "" }
        return sentenceCatalog.sentence("cli.didYouMean", .text("\(CommandManual.program) \(closest.0)"), in: .cli)
    }

    /// Levenshtein distance, with a swap of two neighbours counting as one edit.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let (x, y) = (Array(a), Array(b))
        guard !x.isEmpty, !y.isEmpty else { return max(x.count, y.count) }
        var table = Array(repeating: Array(repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { table[i][0] = i }
        for j in 0...y.count { table[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[x.count][y.count]
    }

    private static func help(_ command: String?, console: Console) -> ExitCode {
        guard let command else {
            console.line(HelpText.overview)
            return .success
        }
        guard let text = HelpText.text(for: command) else {
            console.error(sentenceCatalog.sentence("cli.unknownHelpCommand", .text(ArgumentSpecification.name(of: command)), .text(suggestion(for: command)),
                                                   in: .cli))
            return .usage
        }
        console.line(text)
        return .success
    }
}
