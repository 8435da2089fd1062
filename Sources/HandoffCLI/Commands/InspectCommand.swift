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
        console.line(sentenceCatalog.sentence("inspect.header", .number(payload.text.utf8.count), .number(payload.binary.count), in: .cli))
        console.line(sentenceCatalog.sentence("inspect.version", .number(payload.version), in: .cli))
        console.line(sentenceCatalog.sentence("inspect.intent", .number(payload.intent.rawValue), in: .cli))
        console.line(sentenceCatalog.sentence("inspect.transferID", .text("\(payload.transferID)"), in: .cli))
        console.line(left > 0 ? sentenceCatalog.sentence("inspect.expiry.future", .text(expiry), .text(Durations.text(left)), in: .cli)
                              : sentenceCatalog.sentence("inspect.expiry.past", .text(expiry), .text(Durations.text(left)), in: .cli))
        console.line(sentenceCatalog.sentence("inspect.commitment", .number(SessionPayload.commitmentByteCount), in: .cli))
        console.line(sentenceCatalog.sentence("inspect.publicKey", .text(Hex.encode(payload.senderPublicKey.bytes)), in: .cli))
        if let rendezvous = try? TCPRendezvous(token: payload.rendezvous) {
            console.line(sentenceCatalog.sentence("inspect.rendezvous", .text("\(rendezvous)"), .number(payload.rendezvous.bytes.count), in: .cli))
        } else {
            console.line(sentenceCatalog.sentence("inspect.rendezvous.unreachable", .number(payload.rendezvous.bytes.count),
                                                  .text(Hex.encode(payload.rendezvous.bytes)), in: .cli))
        }
        guard left > 0 else {
            console.error(sentenceCatalog.sentence("inspect.expired", .text(Durations.text(left)), in: .cli))
            return .expired
        }
        console.line(sentenceCatalog.sentence("inspect.wellFormed", .text(Durations.text(left)), in: .cli))
        return .success
    }
}
