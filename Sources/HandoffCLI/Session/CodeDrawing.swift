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
            console.line(sentenceCatalog.sentence("code.renewed", .number(number), .number(maximumCodes), in: .cli))
        }
        let matrix: QRMatrix
        do { matrix = try QRMatrix(payload: payload, errorCorrection: level) } catch {
            throw CLIError(sentenceCatalog.sentence("code.qrFailed", .text(error.sentence(in: .cli)), in: .cli), exitCode: .failure)
        }
        let codeLine = sentenceCatalog.sentence("code.line", .text(payload.text), in: .cli)
        var instructions: [String] = []
        if choice.reach == .thisMachine, relay == nil {
            instructions.append(Self.pasteOnThisComputer)
        } else {
            instructions.append(sentenceCatalog.sentence("code.pasteOnOtherComputer", in: .cli))
        }
        if let typed { instructions.append(Self.typedCodeLine(typed)) }
        if number == 1, let typedUnavailable { instructions.append(typedUnavailable) }
        let seconds = Int(payload.expiry) - Int(Date().timeIntervalSince1970)
        let waiting = relay?.relayOnly == true
            ? sentenceCatalog.sentence("code.waitingAtRelay", in: .cli) : sentenceCatalog.sentence("code.waitingOnPort", .number(port), in: .cli)
        instructions.append(sentenceCatalog.sentence("code.reachAndWait", .text(RelayOption.sentence(choice, relay)), .text(waiting),
                                                     .text(Durations.text(seconds)), in: .cli))
        if number == 1, choice.reach == .thisMachine, relay == nil { instructions.append(Self.reachingAnotherComputer()) }
        if number == 1 { instructions.append(sentenceCatalog.sentence("code.ctrlC", in: .cli)) }
        let header = sentenceCatalog.sentence("code.qrHeader", .number(matrix.version), .text("\(level)"), in: .cli)
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
            console.line(sentenceCatalog.sentence("code.windowTooSmall", .text(size), .number(columns), .number(rows), in: .cli))
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
        let sideText = sentenceCatalog.sentence("code.sideText", .number(matrix.version), .text("\(level)"), .text(Durations.text(seconds)), in: .cli)
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
        sentenceCatalog.sentence("code.typedLine", .text(typed.grouped), .text(SpokenCode.formatter.accessibilityLabel(for: typed)), in: .cli)
    }

    /// Where a code that names 127.0.0.1 alone can be used.
    package static let pasteOnThisComputer = sentenceCatalog.sentence("code.pasteOnThisComputer", in: .cli)

    /// How to send to another computer instead, naming this computer's network addresses.
    package static func reachingAnotherComputer() -> String {
        let addresses = ((try? InterfaceAddress.all()) ?? [])
            .filter { $0.isUp && !$0.address.isLoopback }
            .map { "\($0.address) (\($0.interfaceName))" }
        let these = addresses.isEmpty ? "" : sentenceCatalog.sentence("code.thisComputerHas", .text(addresses.joined(separator: ", ")), in: .cli)
        return sentenceCatalog.sentence("code.anotherComputer", .text(these), in: .cli)
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
