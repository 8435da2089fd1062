#if os(Linux)
import AvahiHosts
import Foundation
import HandoffCLI

/// The typed demo's two hosts (`handoff-dev demo --typed`): network namespaces of their own,
/// each with its own D-Bus system bus and Avahi daemon (``AvahiHosts``), the sender in host 1
/// and the receiver in host 2, so the typed way's DNS-SD runs for real without touching this
/// machine's network or daemons.
struct DemoHosts {
    static let sender = 1
    static let receiver = 2

    let hosts: AvahiHosts

    /// Builds the hosts, or says in a sentence why it cannot.
    static func start(console: Console) async throws(CLIError) -> DemoHosts {
        if let reason = AvahiHosts.unavailableReason {
            throw CLIError("The typed demo cannot run here: \(reason)", exitCode: .failure)
        }
        console.line("AccountHandoff typed demo: 'handoff send' and 'handoff receive' run in two network namespaces, each with its own Avahi daemon, and pair by the short code that the sending side shows beside its QR.")
        do { return DemoHosts(hosts: try await AvahiHosts.started(hostCount: 2)) } catch {
            throw CLIError("The typed demo could not build its namespaces (\(error)); run it as root with Debian's avahi-daemon installed.", exitCode: .failure)
        }
    }

    /// The program and arguments that run `executable` in host `number`.
    func command(in number: Int, _ executable: URL, _ arguments: [String]) throws(CLIError) -> (URL, [String]) {
        let command: [String]
        do { command = try hosts.command(in: number, executable.path, arguments) } catch {
            throw CLIError("The typed demo could not start a program in its namespaces (\(error)); try again.", exitCode: .failure)
        }
        return (URL(fileURLWithPath: command[0]), Array(command.dropFirst()))
    }

    /// Host `number`'s environment (its own system bus).
    func environment(of number: Int) -> [String: String] { hosts.host(number).environment }

    func stop() { hosts.stop() }
}
#else
import Foundation
import HandoffCLI

/// The typed demo needs network namespaces: Linux only.
struct DemoHosts {
    static let sender = 1
    static let receiver = 2

    static func start(console: Console) async throws(CLIError) -> DemoHosts {
        throw CLIError("The typed demo needs network namespaces, which only Linux has; run it on Linux.", exitCode: .failure)
    }

    func command(in number: Int, _ executable: URL, _ arguments: [String]) throws(CLIError) -> (URL, [String]) { (executable, arguments) }
    func environment(of number: Int) -> [String: String] { [:] }
    func stop() {}
}
#endif
