import AccountHandoff
import AccountHandoffQR
import AccountHandoffTransport
import Foundation

/// Conversions of option values shared by several commands; each failure is a usage error
/// that names the option and what it accepts.
package enum OptionValues {
    package static func errorCorrection(_ parsed: ParsedArguments, command: String) throws(CLIError) -> QRErrorCorrection {
        guard let text = parsed.value("--ecc") else { return .standard }
        guard let level = QRErrorCorrection(letter: text) else {
            throw .usage(sentenceCatalog.sentence("option.ecc", in: .cli), command: command)
        }
        return level
    }

    package static func palette(_ parsed: ParsedArguments, command: String) throws(CLIError) -> TerminalQRRenderer.Palette {
        guard let text = parsed.value("--qr-style") else { return .ansi }
        switch text {
        case "ansi": return .ansi
        case "light": return .darkOnLight
        case "dark": return .lightOnDark
        default: throw .usage(sentenceCatalog.sentence("option.qrStyle", in: .cli), command: command)
        }
    }

    static func integer(_ parsed: ParsedArguments, _ name: String, in range: ClosedRange<Int>, default value: Int,
                        command: String) throws(CLIError) -> Int {
        guard let text = parsed.value(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw .usage(sentenceCatalog.sentence("option.wholeNumber", .text(name), .number(range.lowerBound), .number(range.upperBound), in: .cli), command: command)
        }
        return number
    }
}
