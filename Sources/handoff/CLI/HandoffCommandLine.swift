import Foundation

/// Dispatches `handoff <command> ...` and turns every error into its sentence and exit code.
enum HandoffCommandLine {
    static func run(_ arguments: [String]) async -> ExitCode {
        let console = Console()
        let input = StandardInput()
        guard let command = arguments.first else {
            console.error("handoff needs a command. Run 'handoff help' to see them, or 'handoff demo --yes' to watch a whole transfer.")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if command == "--version" {
            console.line(HelpText.version)
            return .success
        }
        if ["help", "--help", "-h"].contains(command) { return help(rest.first, console: console) }
        if rest.contains("--help") || rest.contains("-h") { return help(command, console: console) }
        do throws(CLIError) {
            switch command {
            case "demo": return try await DemoCommand.run(rest, console: console, input: input)
            case "send": return try await SendCommand.run(rest, console: console, input: input)
            case "receive": return try await ReceiveCommand.run(rest, console: console, input: input)
            // These commands block throughout (standard input, files, the store).
            case "accounts": return try await blockingStep { () throws(CLIError) in try AccountsCommand.run(rest, console: console) }
            case "inspect": return try await blockingStep { () throws(CLIError) in try InspectCommand.run(rest, console: console, input: input) }
            case "qr": return try await blockingStep { () throws(CLIError) in try QRCommand.run(rest, console: console, input: input) }
            case "bench": return try await BenchCommand.run(rest, console: console)
            case "vectors": return try VectorsCommand.run(rest, console: console)
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
