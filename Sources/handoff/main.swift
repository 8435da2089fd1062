import Foundation

// The handoff command: see HelpText for the manual and ExitCode for the exit codes.
EarlyInterrupt.install()
let code = await HandoffCommandLine.run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
