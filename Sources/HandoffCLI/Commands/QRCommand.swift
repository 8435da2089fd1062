import AccountHandoff
import AccountHandoffQR
import Foundation

/// `handoff qr [--svg FILE] [--png FILE] [--terminal]`: draws a transfer code (read from
/// standard input or `--code-file`) only. Image files hold the code too, so they are created
/// with mode 0600.
enum QRCommand {
    static let specification = CommandManual.qr.specification

    static func run(_ arguments: [String], console: Console, input: StandardInput) throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        let level = try OptionValues.errorCorrection(parsed, command: "qr")
        let palette = try OptionValues.palette(parsed, command: "qr")
        let scale = try OptionValues.integer(parsed, "--scale", in: 1...64, default: 8, command: "qr")
        if let positional = parsed.positionals.first, positional != "-" { throw TransferCode.refusalOnCommandLine(command: "qr") }
        let payload = try TransferCode.read(parsed, input: input, console: console)
        let matrix: QRMatrix
        do { matrix = try QRMatrix(payload: payload, errorCorrection: level) } catch {
            throw CLIError(sentenceCatalog.sentence("code.qrFailed", .text(error.sentence(in: .cli)), in: .cli), exitCode: .failure)
        }
        let files = parsed.value("--svg") != nil || parsed.value("--png") != nil
        if parsed.has("--terminal") || !files {
            console.raw(TerminalQRRenderer(palette: palette).render(matrix))
        }
        try writeImages(matrix, svg: parsed.value("--svg"), png: parsed.value("--png"), scale: scale, console: console)
        console.line(sentenceCatalog.sentence("qr.summary", .number(matrix.version), .number(matrix.size), .number(matrix.size), .text("\(level)"), in: .cli))
        // Drawn anyway (a picture of it may be wanted), but nobody can use it any more.
        let left = Int(payload.expiry) - Int(Date().timeIntervalSince1970)
        guard left > 0 else {
            console.error(sentenceCatalog.sentence("qr.expired", .text(Durations.text(left)), in: .cli))
            return .expired
        }
        return .success
    }

    /// Writes the SVG and PNG files that were asked for and says where.
    static func writeImages(_ matrix: QRMatrix, svg: String?, png: String?, scale: Int, console: Console) throws(CLIError) {
        if let svg {
            try write(Data(SVGQRRenderer(moduleSize: scale).render(matrix).utf8), to: svg)
            console.line(sentenceCatalog.sentence("qr.wroteSVG", .text(svg), in: .cli))
        }
        if let png {
            try write(Data(PNGQRRenderer(scale: scale).render(matrix)), to: png)
            console.line(sentenceCatalog.sentence("qr.wrotePNG", .text(png), in: .cli))
        }
    }

    /// Refuses, before anything else happens, an image path that could not be written.
    static func checkImageTargets(_ parsed: ParsedArguments) throws(CLIError) {
        for path in [parsed.value("--svg"), parsed.value("--png")].compactMap({ $0 }) {
            do { try SafeOutputFile.checkCanWrite(to: path) } catch { throw CLIError(error.sentence(in: .cli), exitCode: .failure) }
        }
    }

    /// Writes a new 0600 file atomically; never through a link or over a device or directory.
    private static func write(_ data: Data, to path: String) throws(CLIError) {
        do { try SafeOutputFile.write(Array(data), to: path) } catch {
            throw CLIError(error.sentence(in: .cli), exitCode: .failure)
        }
    }
}
