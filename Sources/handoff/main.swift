import Foundation
import HandoffCLI

// The handoff command: see HelpText for the manual and ExitCode for the exit codes. What needs
// no session (the version, the help) is answered before anything asynchronous starts, so it
// starts no thread.
EarlyInterrupt.install()
let arguments = Array(CommandLine.arguments.dropFirst())
if let code = HandoffCommandLine.runWithoutSession(arguments) { exit(code.rawValue) }
let code = await HandoffCommandLine.run(arguments)
exit(code.rawValue)
