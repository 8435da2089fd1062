import Foundation
import Testing

/// A `handoff send` and a `handoff receive` on 127.0.0.1, each on a terminal of its own where a
/// person types: the receiving person pastes the transfer code at its prompt, the sending
/// person types the code the receiving terminal shows, and each gate asks on its terminal.
struct TerminalPair {
    /// How the two local-authentication gates run.
    enum Gates {
        /// `--no-local-auth` on both sides.
        case off
        /// PAM under pam_wrapper with pam_matrix: the login password is ``CLIGate/password``.
        case pamWrapper(CLIGate)
        /// The system's PAM (/etc/pam.d), with these services (`nil`: the default, `handoff`,
        /// which falls back to `other`).
        case systemPAM(sender: String?, receiver: String?)

        var isOn: Bool {
            if case .off = self { false } else { true }
        }
    }

    /// How one side ended.
    struct Ending {
        let status: Int32
        let killedBySignal: Bool
        /// Everything its terminal showed, line endings as `\n`.
        let screen: String
        /// When the process ended.
        let endedAt: ContinuousClock.Instant?
    }

    let sender: TerminalProcess
    let receiver: TerminalProcess
    let gates: Gates

    /// Starts the sender, reads its code, starts the receiver and pastes the code at its prompt.
    static func start(_ scratch: Scratch, gates: Gates, receiver receiverExtra: [String] = [], store: URL? = nil,
                      validated: Bool = false) async throws -> TerminalPair {
        let senderArguments = scratch.sendArguments(service(of: gates, sender: true), gated: gates.isOn)
        let sender = try await launch(senderArguments, gates: gates)
        try #require(await sender.waitForScreen(containing: "Transfer code: AH:"), "the sender showed no code: \(sender.screen)")
        let line = try #require(sender.screen.split(separator: "\n").first { $0.hasPrefix("Transfer code: ") })
        let code = String(line.dropFirst("Transfer code: ".count))
        let receiverArguments = scratch.receiveArguments(service(of: gates, sender: false) + receiverExtra, store: store,
                                                         validated: validated, gated: gates.isOn)
        let receiver = try await launch(receiverArguments, gates: gates)
        try #require(await receiver.waitForScreen(containing: Shown.codePrompt), "the receiver never asked for the code: \(receiver.screen)")
        receiver.type(code + "\n")
        return TerminalPair(sender: sender, receiver: receiver, gates: gates)
    }

    private static func service(of gates: Gates, sender: Bool) -> [String] {
        guard case .systemPAM(let senderService, let receiverService) = gates, let service = sender ? senderService : receiverService else { return [] }
        return ["--auth-service", service]
    }

    private static func launch(_ arguments: [String], gates: Gates) async throws -> TerminalProcess {
        if case .pamWrapper(let gate) = gates { return try await TerminalProcess.start(arguments, gate: gate) }
        return try TerminalProcess(arguments)
    }

    /// The code the receiving terminal shows.
    func receiversCode() async throws -> String {
        let marker = "Code for the sending device: "
        try #require(await receiver.waitForScreen(containing: marker), "the receiver showed no code: \(receiver.screen)\nsender: \(sender.screen)")
        let screen = receiver.screen
        let range = try #require(screen.range(of: marker))
        return String(screen[range.upperBound...].prefix(7))
    }

    /// The sending person types the code the receiving terminal shows.
    func senderTypesTheReceiversCode() async throws {
        let shown = try await receiversCode()
        try #require(await sender.waitForScreen(containing: Asked.codeQuestion), "the sender never asked for the code: \(sender.screen)")
        sender.type(shown + "\n")
    }

    /// The receiving person accepts the offered account.
    func receiverAccepts() async throws {
        try #require(await receiver.waitForScreen(containing: Asked.importQuestion), "the receiver was never asked to import: \(receiver.screen)")
        receiver.type("yes\n")
    }

    /// Types `password` at `side`'s `count`-th login-password question, once it is on screen.
    func answerGate(of side: TerminalProcess, with password: String = CLIGate.password, count: Int = 1) async throws {
        try #require(await side.waitForScreen(containing: Asked.loginPassword, count: count), "no login-password question: \(side.screen)")
        side.type(password + "\n")
    }

    /// Both endings, once both processes ended (each is killed after `timeout`). No screen
    /// shows the account's password or the gate's login password.
    func finish(timeout: Duration = .seconds(20)) async -> (sent: Ending, received: Ending) {
        let received = await Self.ending(of: receiver, timeout: timeout)
        let sent = await Self.ending(of: sender, timeout: timeout)
        for ending in [sent, received] {
            #expect(!ending.screen.contains(HandoffProcess.testPassword), "the account's password was shown")
            #expect(!ending.screen.contains(CLIGate.password), "the login password was echoed")
        }
        return (sent, received)
    }

    static func ending(of terminal: TerminalProcess, timeout: Duration) async -> Ending {
        let (status, killed) = await terminal.finish(timeout: timeout)
        return Ending(status: status, killedBySignal: killed, screen: terminal.screen, endedAt: terminal.endedAt)
    }
}

/// What the CLI shows on a terminal that the tests wait for, besides the questions (``Asked``).
enum Shown {
    /// The receiver's prompt for the transfer code.
    static let codePrompt = "Transfer code (shown by the sending device, AH:...): "
}
