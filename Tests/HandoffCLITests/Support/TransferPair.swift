import Foundation
import Testing

/// What the CLI asks, as the tests wait for it.
enum Asked {
    /// Ends the sender's question for the code the receiving device shows.
    static let codeQuestion = "[code/no/cancel] "
    /// Ends the receiver's question whether to import the offered account.
    static let importQuestion = "[yes/no/cancel] "
    /// Ends the local-authentication gate's question for the login password.
    static let loginPassword = "[login password] "
}

extension HandoffProcess {
    /// Plays the person at an interactive `handoff-dev demo`: types the code the receiving side
    /// shows into the sending side, accepts, and gives each gate the demo's login password,
    /// each answer once its question is on screen. `false` when a question never came.
    func walkThroughDemo() async -> Bool {
        guard let shown = await shortCode(),
              await waitForOutput(containing: Asked.codeQuestion) != nil else { return false }
        write(shown + "\n")
        guard await waitForOutput(containing: Asked.importQuestion) != nil else { return false }
        write("yes\n")
        for gate in 1...2 {
            guard await waitForOutput(containing: Asked.loginPassword, count: gate) else { return false }
            write("demo-login\n")
        }
        return true
    }
}

/// A `handoff send` and a `handoff receive` on 127.0.0.1, started the way a person starts
/// them: the receiver gets the transfer code on its standard input.
struct TransferPair {
    let sender: HandoffProcess
    let receiver: HandoffProcess
    let code: String
    /// The gate both run under, kept for as long as the pair: its password file must outlive
    /// the processes that read it.
    var gate: CLIGate? = nil

    /// Starts the sender, reads its code, starts the receiver and types the code into it.
    /// With a `gate`, both run the local-authentication gate (PAM under pam_wrapper).
    static func start(_ scratch: Scratch, sender senderExtra: [String] = [], receiver receiverExtra: [String] = [],
                      store: URL? = nil, validated: Bool = false, gate: CLIGate? = nil) async throws -> TransferPair {
        let senderArguments = scratch.sendArguments(senderExtra, gated: gate != nil)
        let sender = if let gate { try await gate.start(senderArguments) } else { try HandoffProcess(senderArguments) }
        guard let code = await sender.transferCode() else {
            let failed = await sender.finish(timeout: .seconds(1))
            throw PairFailure(message: "the sender printed no transfer code: \(failed.all)")
        }
        let receiverArguments = scratch.receiveArguments(receiverExtra, store: store, validated: validated, gated: gate != nil)
        let receiver: HandoffProcess
        if let gate {
            receiver = try await gate.start(receiverArguments, writing: code + "\n")
        } else {
            receiver = try HandoffProcess(receiverArguments)
            receiver.write(code + "\n")
        }
        return TransferPair(sender: sender, receiver: receiver, code: code, gate: gate)
    }

    /// The sending person types the code the receiving device shows; the receiving person
    /// accepts the account (the gates are off: the scratch runs with --no-local-auth).
    func confirmByTypingCodes() async throws {
        try await senderTypesTheReceiversCode()
        try await receiverAccepts()
    }

    /// Starts a gated pair (``CLIGate``) and plays both people up to the gates: the sending
    /// person types the code, the receiving person accepts.
    static func startGatedAndAccepted(_ scratch: Scratch) async throws -> TransferPair {
        let pair = try await start(scratch, gate: try CLIGate())
        try await pair.senderTypesTheReceiversCode()
        try await pair.receiverAccepts()
        return pair
    }

    /// Answers `process`'s next login-password question (its `count`-th) with `password`,
    /// once it is on screen.
    func answerGate(of process: HandoffProcess, with password: String = CLIGate.password, count: Int = 1) async throws {
        try #require(await process.waitForOutput(containing: Asked.loginPassword, count: count), "no login-password question")
        process.write(password + "\n")
    }

    /// The code the receiving device shows; when it shows none, the failure carries what both
    /// printed so far.
    func receiversCode() async throws -> String {
        try #require(await receiver.shortCode(), """
            the receiver showed no code
            receiver: \(receiver.stdoutSoFar)\(receiver.stderrSoFar)
            sender: \(sender.stdoutSoFar)\(sender.stderrSoFar)
            """)
    }

    /// The sending person types the code the receiving device shows.
    func senderTypesTheReceiversCode() async throws {
        // The receiver first: when it fails to join, the sender would wait until its expiry.
        let shown = try await receiversCode()
        try #require(await sender.waitForOutput(containing: Asked.codeQuestion) != nil, "the sender never asked for the code")
        sender.write(shown + "\n")
    }

    /// The receiving person accepts the offered account.
    func receiverAccepts() async throws {
        try #require(await receiver.waitForOutput(containing: Asked.importQuestion) != nil, "the receiver was never asked to import")
        receiver.write("yes\n")
    }

    /// Both results, the receiver's first.
    func finish(timeout: Duration = HandoffProcess.patience) async -> (sent: HandoffProcess.Result, received: HandoffProcess.Result) {
        let received = await receiver.finish(timeout: timeout)
        let sent = await sender.finish(timeout: timeout)
        return (sent, received)
    }

    struct PairFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
