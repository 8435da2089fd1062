#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff

/// How commands get a transfer code: from standard input (typed at a prompt, or piped), or
/// from a file with `--code-file`. Never from the command line: until its transfer ends, the
/// code lets whoever has it join the transfer first, and every user of the machine can read
/// other processes' command lines (`/proc/PID/cmdline`).
enum TransferCode {
    /// How every transfer code starts.
    static let prefix = SessionPayload.textPrefix

    /// The refusal for a code given as an argument: why, and what to type instead.
    static func refusalOnCommandLine(command: String) -> CLIError {
        guard ["receive", "inspect", "qr"].contains(command) else {
            return CLIError(sentenceCatalog.sentence("transferCode.noCodeHere", .text(command), in: .cli), exitCode: .usage)
        }
        return CLIError(sentenceCatalog.sentence("transferCode.notOnCommandLine", .text(command), in: .cli), exitCode: .usage)
    }

    /// Reads the code from `--code-file` or standard input and decodes it.
    ///
    /// - Throws: ``CLIError`` with exit code 64 when no code arrives, 65 when it is invalid.
    static func read(_ parsed: ParsedArguments, input: StandardInput, console: Console) throws(CLIError) -> SessionPayload {
        try decode(readText(parsed, input: input, console: console, prompt: sentenceCatalog.sentence("transferCode.prompt", in: .cli)))
    }

    /// What `handoff receive` reads at its one prompt: a transfer code (`AH:...`), or the short
    /// typed code the sending device shows beside its QR (Spec 12.5), recognised by its form:
    /// only digits, spaces and hyphens. A typo in a typed code is caught here by its check
    /// digit, before any network use, so it costs no guess.
    ///
    /// - Throws: ``CLIError`` with exit code 64 when no code arrives, 65 when it is invalid.
    static func readEntry(_ parsed: ParsedArguments, input: StandardInput, console: Console) throws(CLIError) -> Entry {
        let text = try readText(parsed, input: input, console: console,
                                prompt: sentenceCatalog.sentence("transferCode.promptTyped", in: .cli))
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x20 || $0 == 0x2D }) else {
            return .transferCode(try decode(text))
        }
        do { return .typed(try TypedCode(entry: text)) } catch {
            throw CLIError(typedEntryRefusal(error), exitCode: .invalidInput)
        }
    }

    /// A code read at the receiving prompt.
    enum Entry {
        /// A transfer code (the QR's text).
        case transferCode(SessionPayload)
        /// The short code the receiving person typed; the caller owns and wipes it.
        case typed(TypedCode)
    }

    /// Why a typed entry is refused, with what to do; nothing was sent.
    static func typedEntryRefusal(_ error: HandoffError) -> String {
        switch error {
        case .malformed(.typedCode):
            sentenceCatalog.sentence("transferCode.unknownTyped", in: .cli)
        case .typedCodeIsShortCode:
            sentenceCatalog.sentence("transferCode.shortCodeTyped", .text(shape), in: .cli)
        default:
            error.message(for: .receiver)
        }
    }

    private static func readText(_ parsed: ParsedArguments, input: StandardInput, console: Console, prompt: String) throws(CLIError) -> String {
        let text: String
        if let path = parsed.value("--code-file") {
            text = try readFile(path, console: console)
        } else {
            if input.isTerminal { console.raw(prompt) }
            guard let line = input.readLineNow() else {
                throw CLIError(sentenceCatalog.sentence("transferCode.noneOnInput", in: .cli), exitCode: .usage)
            }
            text = line
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// What a whole code looks like, for a person who pasted something else.
    static let shape = sentenceCatalog.sentence("transferCode.shape", in: .cli)

    /// Decodes a transfer code, turning each failure into a sentence and exit code 65.
    static func decode(_ text: String) throws(CLIError) -> SessionPayload {
        do { return try SessionPayload(text: text) } catch {
            throw CLIError(refusal(of: text, error), exitCode: .invalidInput)
        }
    }

    /// The sentence for a refused code: a person at a terminal pastes, so the common slips
    /// (the six digits meant for the sending device, half a code, a wrapped line) are named.
    private static func refusal(of text: String, _ error: HandoffError) -> String {
        let compact = text.filter { $0 != " " && $0 != "-" }
        if compact.count == 6, compact.allSatisfy(\.isASCII), compact.allSatisfy(\.isNumber) {
            return sentenceCatalog.sentence("transferCode.shortCode", .text(shape), in: .cli)
        }
        if error.code == .badMagic {
            return sentenceCatalog.sentence("transferCode.notACode", .text(shape), in: .cli)
        }
        if text.hasPrefix(prefix), error.code == .malformed || error.code == .nonCanonicalEncoding {
            return sentenceCatalog.sentence("transferCode.damaged", .number(text.count), .text(shape), in: .cli)
        }
        return sentenceCatalog.sentence("transferCode.invalid", .text(error.message(for: .receiver, in: .cli)), in: .cli)
    }

    private static func readFile(_ path: String, console: Console) throws(CLIError) -> String {
        let bytes = try InputFile.readFirstLine(path, what: .transferCode, maximumByteCount: 1024, console: console)
        return String(decoding: bytes, as: UTF8.self)
    }
}
