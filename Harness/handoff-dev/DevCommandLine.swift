import HandoffCLI

/// Dispatches `handoff-dev <command> ...` and turns every error into its sentence and exit
/// code, with the console, parser and manuals of `handoff`.
enum DevCommandLine {
    static let manuals: [CommandManual] = [.demo, .bench, .vectors]

    static var overview: String {
        """
        handoff-dev: the developer tool of AccountHandoff (not shipped; people run 'handoff').

        Usage: handoff-dev <command> [options]
               handoff-dev help <command> | handoff-dev <command> --help

        Commands:
          demo      Run a whole transfer between two handoff processes on this machine (start here).
          bench     Time a whole session against its exact libsodium floor, and more.
          vectors   Regenerate the test-vector files: handoff-dev vectors --out DIR
        """
    }

    static func run(_ arguments: [String]) async -> ExitCode {
        let console = Console()
        guard let command = arguments.first else {
            console.error("handoff-dev needs a command. Run 'handoff-dev help' to see them, or 'handoff-dev demo --yes' to watch a whole transfer.")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if ["help", "--help", "-h"].contains(command) || rest.contains("--help") || rest.contains("-h") {
            let topic = ["help", "--help", "-h"].contains(command) ? rest.first : command
            guard let topic else {
                console.line(overview)
                return .success
            }
            guard let manual = manuals.first(where: { $0.command == topic }) else {
                console.error("'\(topic)' is not a handoff-dev command. Run 'handoff-dev help' to see them.")
                return .usage
            }
            console.line(manual.text)
            return .success
        }
        do throws(CLIError) {
            switch command {
            case "demo": return try await DemoCommand.run(rest, console: console, input: StandardInput())
            case "bench": return try await BenchCommand.run(rest, console: console)
            case "vectors": return try VectorsCommand.run(rest, console: console)
            default: throw CLIError.usage("'\(command)' is not a handoff-dev command.", command: nil)
            }
        } catch {
            console.error(error.message)
            return error.exitCode
        }
    }
}
