import HandoffCLI
import AccountHandoffTransitRelay

/// `handoff-dev demo --relay`: Debian's magic-wormhole transit relay (`twistd3 transitrelay`) as a
/// child process on 127.0.0.1, in a temporary directory, stopped at the end; the sender's code
/// names only the relay, so the transfer goes through it (Spec 11.7).
enum DemoRelay {
    /// Starts the relay and says so.
    static func start(console: Console) async throws(CLIError) -> TransitRelay {
        let relay: TransitRelay
        do { relay = try await TransitRelay.started() } catch {
            throw CLIError("The demo's relay cannot start. \(error.description) Scripts/setup.sh installs it.", exitCode: .failure)
        }
        console.line("A transit relay runs on \(relay.host):\(relay.port) (Debian's magic-wormhole-transit-relay: \(relay.commandLine)); the sender's code names only the relay, so the transfer goes through it.")
        return relay
    }

    /// What the sender adds to its command line.
    static func senderArguments(_ relay: TransitRelay) -> [String] {
        ["--relay", "\(relay.host):\(relay.port)", "--relay-only"]
    }
}
