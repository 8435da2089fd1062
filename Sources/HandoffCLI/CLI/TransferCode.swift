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
            return CLIError("'handoff \(command)' takes no transfer code, and a transfer code never belongs on a command line: until the transfer ends it is a secret that other users of this computer could read there.", exitCode: .usage)
        }
        return CLIError("""
            A transfer code is not accepted on the command line: until the transfer ends it is a secret, and \
            other users of this computer can read command lines. Run 'handoff \(command)' and paste the code \
            when it asks, pipe it in ('handoff \(command) < code.txt'), or use --code-file FILE.
            """, exitCode: .usage)
    }

    /// Reads the code from `--code-file` or standard input and decodes it.
    ///
    /// - Throws: ``CLIError`` with exit code 64 when no code arrives, 65 when it is invalid.
    static func read(_ parsed: ParsedArguments, input: StandardInput, console: Console) throws(CLIError) -> SessionPayload {
        try decode(readText(parsed, input: input, console: console, prompt: "Transfer code (shown by the sending device, AH:...): "))
    }

    /// What `handoff receive` reads at its one prompt: a transfer code (`AH:...`), or the short
    /// typed code the sending device shows beside its QR (Spec 12.5), recognised by its form:
    /// only digits, spaces and hyphens. A typo in a typed code is caught here by its check
    /// digit, before any network use, so it costs no guess.
    ///
    /// - Throws: ``CLIError`` with exit code 64 when no code arrives, 65 when it is invalid.
    static func readEntry(_ parsed: ParsedArguments, input: StandardInput, console: Console) throws(CLIError) -> Entry {
        let text = try readText(parsed, input: input, console: console,
                                prompt: "Transfer code (shown by the sending device, AH:..., or the 11-digit code beside its QR): ")
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
            "That is not a code this tool knows: the code to type has 11 digits in groups of 3, 4 and 4 (such as 427 8150 9366), and a transfer code starts with AH:; nothing was sent, so type the code again."
        case .typedCodeIsShortCode:
            "Those six digits look like the code for the sending device: type them there when it asks. Here, paste the transfer code the sending device shows (\(shape)), or type the 11-digit code beside its QR."
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
                throw CLIError("No transfer code arrived on standard input; paste it when asked, pipe it in, or use --code-file FILE.", exitCode: .usage)
            }
            text = line
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// What a whole code looks like, for a person who pasted something else.
    static let shape = "one line of about 180 characters starting with AH:"

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
            return "Those six digits look like the code for the sending device: type them there when it asks. Here, paste the transfer code the sending device shows (\(shape))."
        }
        if error.code == .badMagic {
            return "This is not a transfer code; paste the transfer code the sending device shows (\(shape))."
        }
        if text.hasPrefix(prefix), error.code == .malformed || error.code == .nonCanonicalEncoding {
            return "The transfer code is damaged or incomplete (it has \(text.count) characters; a whole code is \(shape)); copy the whole line the sending device shows, without line breaks, and paste it again."
        }
        return "The transfer code is invalid. \(error.message(for: .receiver, in: .cli))"
    }

    private static func readFile(_ path: String, console: Console) throws(CLIError) -> String {
        let bytes = try InputFile.readFirstLine(path, what: "transfer code", maximumByteCount: 1024, console: console)
        return String(decoding: bytes, as: UTF8.self)
    }
}
