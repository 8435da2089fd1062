import AccountHandoff
import AccountHandoffTransport
import Foundation

/// `handoff inspect`: decodes a transfer code (standard input or `--code-file`) and prints its
/// session fields and the time left, or exactly why it is invalid. The commitment (the QR
/// secret) is not printed.
enum InspectCommand {
    static let specification = CommandManual.inspect.specification

    static func run(_ arguments: [String], console: Console, input: StandardInput) throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        if let positional = parsed.positionals.first, positional != "-" { throw TransferCode.refusalOnCommandLine(command: "inspect") }
        let payload = try TransferCode.read(parsed, input: input, console: console)
        let now = Int(Date().timeIntervalSince1970)
        let left = Int(payload.expiry) - now
        let expiry = ISO8601DateFormatter().string(from: payload.expiryDate)
        console.line("Transfer code (\(payload.text.utf8.count) characters, \(payload.binary.count) bytes):")
        console.line("  Protocol version: \(payload.version)")
        console.line("  Intent: send an account (\(payload.intent.rawValue))")
        console.line("  Transfer ID: \(payload.transferID) (derived from the code)")
        console.line("  Expiry: \(expiry) (\(left > 0 ? "in \(Durations.text(left))" : "\(Durations.text(left)) ago"))")
        console.line("  Commitment: \(SessionPayload.commitmentByteCount) bytes (the QR secret, not shown)")
        console.line("  Sender public key: \(Hex.encode(payload.senderPublicKey.bytes))")
        if let rendezvous = try? TCPRendezvous(token: payload.rendezvous) {
            console.line("  Rendezvous: \(rendezvous) (\(payload.rendezvous.bytes.count) bytes)")
        } else {
            console.line("  Rendezvous: \(payload.rendezvous.bytes.count) bytes (\(Hex.encode(payload.rendezvous.bytes))), not a local network address this tool can reach")
        }
        guard left > 0 else {
            console.error("This transfer code expired \(Durations.text(left)) ago; ask the sending device for a new code.")
            return .expired
        }
        console.line("The code is well formed and has not expired (\(Durations.text(left)) left). This command cannot tell whether the sending device still waits for it: the code may have been used, rejected or cancelled, or changed in copying. 'handoff receive' finds out.")
        return .success
    }
}
