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
        let codeLine = "Transfer code: \(payload.text)"
        var instructions: [String] = []
        if choice.reach == .thisMachine, relay == nil {
            instructions.append(Self.pasteOnThisComputer)
        } else {
            instructions.append("Or, on the receiving computer, run 'handoff receive' and paste this code when it asks (never put it on a command line).")
        }
        if let typed { instructions.append(Self.typedCodeLine(typed)) }
        if number == 1, let typedUnavailable { instructions.append(typedUnavailable) }
        let seconds = Int(payload.expiry) - Int(Date().timeIntervalSince1970)
        let waiting = relay?.relayOnly == true ? "Waiting for the receiving device at the relay" : "Waiting for the receiving device on port \(port)"
        instructions.append(RelayOption.sentence(choice, relay) + " \(waiting) (the code expires in \(Durations.text(seconds))).")
        if number == 1, choice.reach == .thisMachine, relay == nil { instructions.append(Self.reachingAnotherComputer()) }
        if number == 1 { instructions.append("Press Ctrl-C to cancel.") }
        let header = "Scan this QR code with the receiving device (version \(matrix.version), error correction \(level)):"
        let layout = parsed.has("--no-qr") ? nil : QRLayout.choose(moduleCount: matrix.size, terminal: TerminalSize.ofStandardOutput(),
                                                                    standardText: [header, codeLine] + instructions,
                                                                    codeLine: codeLine, linesAfter: relay == nil ? 0 : 1)
        switch layout {
        case .standard:
            console.line(header)
            console.raw(TerminalQRRenderer(palette: palette).render(matrix))
            try QRCommand.writeImages(matrix, svg: parsed.value("--svg"), png: parsed.value("--png"), scale: 8, console: console)
            console.line(codeLine)
            instructions.forEach { console.line($0) }
        case .compact:
            // The code and the QR last, so that neither has scrolled away when the window is small.
            try QRCommand.writeImages(matrix, svg: parsed.value("--svg"), png: parsed.value("--png"), scale: 8, console: console)
            instructions.forEach { console.line($0) }
            console.raw(compactQR(matrix, seconds: seconds))
            console.line(codeLine)
        case .tooSmall(let columns, let rows):
            let size = TerminalSize.ofStandardOutput().map { "(\($0.columns)×\($0.rows)) " } ?? ""
            console.line("This window \(size)is too small to show the QR code whole: it needs \(columns) columns and \(rows) lines. Enlarge the window or make its font smaller, then press Ctrl-C and start again to see it; or paste the transfer code below on the receiving computer, or save the QR code as an image with --png FILE.")
            try QRCommand.writeImages(matrix, svg: parsed.value("--svg"), png: parsed.value("--png"), scale: 8, console: console)
            instructions.forEach { console.line($0) }
            console.line(codeLine)
        case nil:
            try QRCommand.writeImages(matrix, svg: parsed.value("--svg"), png: parsed.value("--png"), scale: 8, console: console)
            console.line(codeLine)
            instructions.forEach { console.line($0) }
        }
        relayLines?.codeIsShown()
    }

    /// The QR with a quiet zone of one module and, beside its lines, what to do with it.
    private func compactQR(_ matrix: QRMatrix, seconds: Int) -> String {
        let rows = TerminalQRRenderer(palette: palette, quietZone: QRLayout.compactQuietZone).render(matrix)
            .split(separator: "\n").map(String.init)
        let width = QRLayout.renderedColumns(matrix.size, quietZone: QRLayout.compactQuietZone)
        let sideColumns = (TerminalSize.ofStandardOutput()?.columns ?? 80) - width - QRLayout.sideGap
        let sideText = "Scan this QR code with the receiving device (version \(matrix.version), error correction \(level)), or paste the transfer code below when 'handoff receive' asks for it. It expires in \(Durations.text(seconds)); Ctrl-C cancels."
        let side = sideColumns < QRLayout.narrowestSideText
            ? [] : TextWrap.lines(sideText.split(separator: " ").map(String.init), width: sideColumns, continuation: "")
        let gap = String(repeating: " ", count: QRLayout.sideGap)
        return rows.enumerated().map { index, row in
            // The text starts on the second line, level with the top of the symbol.
            let text = index >= 1 && index - 1 < side.count ? gap + side[index - 1] : ""
            return row + text + "\n"
        }.joined()
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
