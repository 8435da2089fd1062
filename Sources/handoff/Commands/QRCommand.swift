import AccountHandoff
import AccountHandoffQR
import Foundation

/// `handoff qr PAYLOAD [--svg FILE] [--png FILE] [--terminal]`: draws a transfer code only.
enum QRCommand {
    static let specification = ArgumentSpecification(
        command: "qr", valueOptions: ["--svg", "--png", "--ecc", "--scale", "--qr-style"], flags: ["--terminal"],
        positionals: 1...1, positionalName: "the transfer code (AH:..., or - to read it from standard input)")

    static func run(_ arguments: [String], console: Console, input: StandardInput) throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        let level = try OptionValues.errorCorrection(parsed, command: "qr")
        let palette = try OptionValues.palette(parsed, command: "qr")
        let scale = try OptionValues.integer(parsed, "--scale", in: 1...64, default: 8, command: "qr")
        let payload = try OptionValues.payload(try OptionValues.payloadText(parsed.positionals[0], input: input))
        let matrix: QRMatrix
        do { matrix = try QRMatrix(payload: payload, errorCorrection: level) } catch {
            throw CLIError("The QR code could not be drawn: \(error.description)", exitCode: .failure)
        }
        let files = parsed.value("--svg") != nil || parsed.value("--png") != nil
        if parsed.has("--terminal") || !files {
            console.raw(TerminalQRRenderer(palette: palette).render(matrix))
        }
        try writeImages(matrix, svg: parsed.value("--svg"), png: parsed.value("--png"), scale: scale, console: console)
        console.line("QR version \(matrix.version) (\(matrix.size)x\(matrix.size) modules), error correction \(level).")
        return .success
    }

    /// Writes the SVG and PNG files that were asked for and says where.
    static func writeImages(_ matrix: QRMatrix, svg: String?, png: String?, scale: Int, console: Console) throws(CLIError) {
        if let svg {
            try write(Data(SVGQRRenderer(moduleSize: scale).render(matrix).utf8), to: svg)
            console.line("Wrote the QR code as SVG to \(svg).")
        }
        if let png {
            try write(Data(PNGQRRenderer(scale: scale).render(matrix)), to: png)
            console.line("Wrote the QR code as PNG to \(png).")
        }
    }

    private static func write(_ data: Data, to path: String) throws(CLIError) {
        do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw CLIError("Cannot write \(path); check that its directory exists and is writable.", exitCode: .failure)
        }
    }
}
