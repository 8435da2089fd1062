import Foundation

/// Dispatches `handoff <command> ...` and turns every error into its sentence and exit code.
enum HandoffCommandLine {
    static func run(_ arguments: [String]) -> ExitCode {
        let console = Console()
        let input = StandardInput()
        guard let command = arguments.first else {
            console.error("handoff needs a command. Run 'handoff help' to see them, or 'handoff demo --yes' to watch a whole transfer.")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if ["help", "--help", "-h"].contains(command) { return help(rest.first, console: console) }
        if rest.contains("--help") || rest.contains("-h") { return help(command, console: console) }
        do throws(CLIError) {
            switch command {
            case "demo": return try DemoCommand.run(rest, console: console, input: input)
            case "send": return try SendCommand.run(rest, console: console, input: input)
            case "receive": return try ReceiveCommand.run(rest, console: console, input: input)
            case "inspect": return try InspectCommand.run(rest, console: console, input: input)
            case "qr": return try QRCommand.run(rest, console: console, input: input)
            case "bench": return try BenchCommand.run(rest, console: console)
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
        console.line("")
        console.line(HelpText.exitCodes)
        return .success
    }
}
