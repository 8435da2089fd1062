import Foundation
import Testing

/// A `handoff send` and a `handoff receive` on 127.0.0.1, each on a terminal of its own where a
/// person types: the receiving person pastes the transfer code at its prompt, the sending
/// person types the code the receiving terminal shows, and each gate asks on its terminal.
struct TerminalPair {
    /// How one side's local-authentication gate runs.
    enum Gate {
        /// `--no-local-auth`.
        case off
        /// PAM under pam_wrapper with pam_matrix: the login password is ``CLIGate/password``.
        case pamWrapper(CLIGate)
        /// The system's PAM (/etc/pam.d) with this service (`nil`: the default, `handoff`,
        /// which falls back to `other`).
        case systemPAM(String?)

        var isOn: Bool {
            if case .off = self { false } else { true }
        }

        var serviceArguments: [String] {
            guard case .systemPAM(let service?) = self else { return [] }
            return ["--auth-service", service]
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
    let senderGate: Gate
    let receiverGate: Gate

    /// Starts the sender, reads its code, starts the receiver and pastes the code at its prompt.
    ///
    /// - Parameters:
    ///   - typedPassword: the sending person types the account's password at the sender's
    ///     first question (`--password-stdin`) instead of naming the password file.
    ///   - environment: set in both processes' environments.
    ///   - receiverUserID: run the receiver as this user (the tests must run as root).
    static func start(_ scratch: Scratch, sender senderGate: Gate, receiver receiverGate: Gate, receiver receiverExtra: [String] = [],
                      store: URL? = nil, validated: Bool = false, typedPassword: Bool = false, environment: [String: String] = [:],
                      receiverUserID: uid_t? = nil) async throws -> TerminalPair {
        var senderArguments = scratch.sendArguments(senderGate.serviceArguments, gated: senderGate.isOn)
        if typedPassword, let file = senderArguments.firstIndex(of: "--password-file") {
            senderArguments.replaceSubrange(file...(file + 1), with: ["--password-stdin"])
        }
        let sender = try await launch(senderArguments, gate: senderGate, environment: environment, userID: nil)
        if typedPassword {
            try #require(await sender.waitForScreen(containing: Shown.mailPasswordPrompt), "the sender never asked for the password: \(sender.screen)")
            sender.type(HandoffProcess.testPassword + "\n")
        }
        try #require(await sender.waitForScreen(containing: "Transfer code: AH:"), "the sender showed no code: \(sender.screen)")
        let line = try #require(sender.screen.split(separator: "\n").first { $0.hasPrefix("Transfer code: ") })
        let code = String(line.dropFirst("Transfer code: ".count))
        let receiverArguments = scratch.receiveArguments(receiverGate.serviceArguments + receiverExtra, store: store,
                                                         validated: validated, gated: receiverGate.isOn)
        let receiver = try await launch(receiverArguments, gate: receiverGate, environment: environment, userID: receiverUserID)
        try #require(await receiver.waitForScreen(containing: Shown.codePrompt), "the receiver never asked for the code: \(receiver.screen)")
        receiver.type(code + "\n")
        return TerminalPair(sender: sender, receiver: receiver, senderGate: senderGate, receiverGate: receiverGate)
    }

    /// Both sides with the same kind of gate.
    static func start(_ scratch: Scratch, gates gate: Gate, store: URL? = nil, validated: Bool = false) async throws -> TerminalPair {
        try await start(scratch, sender: gate, receiver: gate, store: store, validated: validated)
    }

    private static func launch(_ arguments: [String], gate: Gate, environment: [String: String], userID: uid_t?) async throws -> TerminalProcess {
        if case .pamWrapper(let world) = gate { return try await TerminalProcess.start(arguments, gate: world, environment: environment) }
        return try TerminalProcess(arguments, environment: environment, userID: userID)
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
    static let codePrompt = "Transfer code (shown by the sending device, AH:..., or the 11-digit code beside its QR): "
    /// The sender's prompt for the account's password (`--password-stdin` on a terminal).
    static let mailPasswordPrompt = "Mail password of ada@example.org, the one to send (not shown): "
}
