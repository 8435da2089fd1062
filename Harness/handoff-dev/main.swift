import Foundation
import HandoffCLI

// The developer tool: the demo, the bench and the vector generator, with the lab they need
// (a throwaway Dovecot, Debian's transit relay, seeded randomness, allocation and libsodium
// call counters). It never ships: `handoff` is the program people run.
EarlyInterrupt.install()
let code = await DevCommandLine.run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
