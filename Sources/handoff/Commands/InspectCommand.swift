import AccountHandoff
import AccountHandoffTransport
import Foundation

/// `handoff inspect PAYLOAD`: decodes a transfer code and prints its session fields and the
/// time left, or exactly why it is invalid. The challenge (the QR secret) is not printed.
enum InspectCommand {
    static let specification = ArgumentSpecification(
        command: "inspect", valueOptions: [], flags: [], positionals: 1...1,
        positionalName: "the transfer code (AH:..., or - to read it from standard input)")

    static func run(_ arguments: [String], console: Console, input: StandardInput) throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        let payload = try OptionValues.payload(try OptionValues.payloadText(parsed.positionals[0], input: input))
        let now = Int(Date().timeIntervalSince1970)
        let left = Int(payload.expiry) - now
        let expiry = ISO8601DateFormatter().string(from: payload.expiryDate)
        console.line("Transfer code (\(payload.text.utf8.count) characters, \(payload.binary.count) bytes):")
        console.line("  Protocol version: \(payload.version)")
        console.line("  Intent: send an account (\(payload.intent.rawValue))")
        console.line("  Transfer ID: \(payload.transferID)")
        console.line("  Expiry: \(expiry) (\(left > 0 ? "in \(Describe.duration(left))" : "\(Describe.duration(left)) ago"))")
        console.line("  Challenge: \(SessionPayload.challengeByteCount) bytes (not shown)")
        console.line("  Sender public key: \(Hex.encode(payload.senderPublicKey.bytes))")
        if let rendezvous = try? TCPRendezvous(token: payload.rendezvous) {
            console.line("  Rendezvous: \(rendezvous) with tag \(Hex.encode(rendezvous.tag)) (\(payload.rendezvous.bytes.count) bytes)")
        } else {
            console.line("  Rendezvous: \(payload.rendezvous.bytes.count) bytes (\(Hex.encode(payload.rendezvous.bytes))), not a local network address this tool can reach")
        }
        guard left > 0 else {
            console.error("This transfer code expired \(Describe.duration(left)) ago; start a new transfer on the sending device.")
            return .expired
        }
        console.line("The code is valid for \(Describe.duration(left)) more.")
        return .success
    }
}
