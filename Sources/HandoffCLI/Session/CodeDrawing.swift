import AccountHandoff
import AccountHandoffQR
import AccountHandoffTransport
import Foundation

/// Shows one transfer code on the sending terminal: the QR (unless `--no-qr`), the image
/// files asked for, the code text, where receivers connect and how long the code lives.
package struct CodeDrawing {
    let level: QRErrorCorrection
    let palette: TerminalQRRenderer.Palette
    let parsed: ParsedArguments
    let console: Console
    /// Where the code sends receivers and who can reach it.
    let choice: ListeningAddressPolicy.Choice
    /// The relay the code names too (`--relay`), if any.
    let relay: RelayOption.Choice?
    /// The relay's status lines, which follow the code's block.
    var relayLines: RelayStatusLines?
    let port: UInt16
    /// How many codes the session shows at most (`--codes`).
    let maximumCodes: Int
    /// Why the typed way is not offered (a whole sentence), when it is not.
    var typedUnavailable: String? = nil

    /// Draws `payload`'s code and, beside it, the `typed` code when the session offers the
    /// typed way; `number` counts the codes shown so far.
    func show(_ payload: SessionPayload, typed: TypedCode?, number: Int) throws(CLIError) {
        if number > 1 {
            console.line("The code expired before any receiving device used it, so here is a new one (code \(number) of \(maximumCodes)); the old one no longer works.")
        }
        let matrix: QRMatrix
        do { matrix = try QRMatrix(payload: payload, errorCorrection: level) } catch {
            throw CLIError("The QR code could not be drawn: \(error.description)", exitCode: .failure)
        }
        if !parsed.has("--no-qr") {
            console.line("Scan this QR code with the receiving device (version \(matrix.version), error correction \(level)):")
            console.raw(TerminalQRRenderer(palette: palette).render(matrix))
        }
        try QRCommand.writeImages(matrix, svg: parsed.value("--svg"), png: parsed.value("--png"), scale: 8, console: console)
        console.line("Transfer code: \(payload.text)")
        if choice.reach == .thisMachine, relay == nil {
            console.line(Self.pasteOnThisComputer)
        } else {
            console.line("Or, on the receiving computer, run 'handoff receive' and paste this code when it asks (never put it on a command line).")
        }
        if let typed { console.line(Self.typedCodeLine(typed)) }
        if number == 1, let typedUnavailable { console.line(typedUnavailable) }
        let seconds = Int(payload.expiry) - Int(Date().timeIntervalSince1970)
        let waiting = relay?.relayOnly == true ? "Waiting for the receiving device at the relay" : "Waiting for the receiving device on port \(port)"
        console.line(RelayOption.sentence(choice, relay) + " \(waiting) (the code expires in \(Durations.text(seconds))).")
        if number == 1, choice.reach == .thisMachine, relay == nil { console.line(Self.reachingAnotherComputer()) }
        if number == 1 { console.line("Press Ctrl-C to cancel.") }
        relayLines?.codeIsShown()
    }

    /// The typed code to show beside the QR (Spec 12.4), grouped and spoken.
    static func typedCodeLine(_ typed: TypedCode) -> String {
        "Or type this code on the receiving device when 'handoff receive' asks for a code: \(typed.grouped) (\(typed.spoken))."
    }

    /// Where a code that names 127.0.0.1 alone can be used.
    package static let pasteOnThisComputer = "Or run 'handoff receive' in another terminal on this computer and paste this code when it asks (never put it on a command line)."

    /// How to send to another computer instead, naming this computer's network addresses.
    package static func reachingAnotherComputer() -> String {
        let addresses = ((try? InterfaceAddress.all()) ?? [])
            .filter { $0.isUp && !$0.address.isLoopback }
            .map { "\($0.address) (\($0.interfaceName))" }
        let these = addresses.isEmpty ? "" : " (this computer has \(addresses.joined(separator: ", ")))"
        return "To send to another computer, press Ctrl-C and start again with --address ADDRESS --lan, where ADDRESS is this computer's address on a network the other computer is on\(these), or with --relay HOST:PORT, a transit relay both computers can reach."
    }
}

/// The sender's password, read once at the start into guarded memory; the session gets a
/// fresh guarded copy after the person passed the gate (it wipes that copy once sealed).
final class PasswordHolder: Sendable {
    private let password: SecretBytes

    init(_ password: SecretBytes) { self.password = password }

    /// A guarded copy.
    func copy() throws -> SecretBytes { try password.copy() }

    /// Wipes the original.
    func wipe() { password.wipe() }
}
