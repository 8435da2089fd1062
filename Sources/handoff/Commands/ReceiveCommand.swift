import AccountHandoff
import AccountHandoffTransport
import Foundation

/// `handoff receive PAYLOAD`: connects to the sender named in the code, shows the code and the
/// offered account, asks the person to confirm, and stores the account.
enum ReceiveCommand {
    static let specification = ArgumentSpecification(
        command: "receive", valueOptions: ["--store"], flags: ["--yes", "--replace"],
        positionals: 1...1, positionalName: "the transfer code (AH:..., or - to read it from standard input)")

    /// Where accounts go unless `--store` says otherwise.
    static let defaultStore = "handoff-store"

    static func run(_ arguments: [String], console: Console, input: StandardInput) throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        let text = try OptionValues.payloadText(parsed.positionals[0], input: input)
        let payload = try OptionValues.payload(text)
        let rendezvous: TCPRendezvous
        do { rendezvous = try TCPRendezvous(token: payload.rendezvous) } catch {
            throw CLIError(error.description, exitCode: .invalidInput)
        }
        Interrupt.install()  // from here on Ctrl-C cancels cleanly
        let store = AccountStore(directory: URL(fileURLWithPath: parsed.value("--store") ?? defaultStore))

        let now = Date()
        let scanned: (receiver: HandoffReceiver, actions: [HandoffAction])
        do {
            scanned = try HandoffReceiver.scan(payload: payload, random: SystemRandomSource(), now: now)
        } catch .expired {
            let ago = Int(now.timeIntervalSince1970) - Int(payload.expiry)
            throw CLIError("This transfer code expired \(Describe.duration(ago)) ago; start a new transfer on the sending device.", exitCode: .expired)
        } catch {
            throw CLIError("This transfer code cannot be used: \(Describe.payloadError(error))", exitCode: .invalidInput)
        }
        let receiver = scanned.receiver
        guard case .send(let hello) = scanned.actions.first else {
            throw CLIError("Internal error: the session produced no hello; start a new transfer.", exitCode: .failure)
        }
        let left = Int(payload.expiry) - Int(now.timeIntervalSince1970)
        console.line("Transfer \(payload.transferID) from \(rendezvous) (the code expires in \(Describe.duration(max(left, 0)))).")

        let connection: FrameConnection
        do { connection = try FrameConnection.connect(to: rendezvous) } catch {
            _ = try? receiver.handle(.transportLost, now: Date())  // wipes the session keys
            throw CLIError(error.description, exitCode: .failure)
        }
        console.line("Connected. Short code: \(receiver.shortCode.grouped) (\(receiver.shortCode.spoken)).")
        let session = ReceiveSession(receiver: receiver, connection: connection, store: store, replace: parsed.has("--replace"),
                                     console: console, input: input, autoConfirm: parsed.has("--yes"))
        return session.run(hello: hello)
    }
}
