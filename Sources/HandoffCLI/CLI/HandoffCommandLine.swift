import Foundation

/// Dispatches `handoff <command> ...` and turns every error into its sentence and exit code.
package enum HandoffCommandLine {
    /// Answers what needs no session and nothing asynchronous (a missing command, the version,
    /// the help); `nil` for a command that must ``run(_:)``.
    package static func runWithoutSession(_ arguments: [String]) -> ExitCode? {
        let console = Console()
        guard let command = arguments.first else {
            console.error("handoff needs a command. Run 'handoff help' to see them.")
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
                throw CLIError.usage("'\(ArgumentSpecification.name(of: command))' is not a handoff command.", command: nil)
            }
        } catch {
            console.error(error.message)
            return error.exitCode
        }
    }

    private static func help(_ command: String?, console: Console) -> ExitCode {
        guard let command else {
            console.line(HelpText.overview)
            return .success
        }
        guard let text = HelpText.text(for: command) else {
            console.error("'\(ArgumentSpecification.name(of: command))' is not a handoff command. Run 'handoff help' to see them.")
            return .usage
        }
        console.line(text)
        return .success
    }
}
