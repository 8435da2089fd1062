import Foundation

// The handoff command: see HelpText for the manual and ExitCode for the exit codes.
exit(HandoffCommandLine.run(Array(CommandLine.arguments.dropFirst())).rawValue)
