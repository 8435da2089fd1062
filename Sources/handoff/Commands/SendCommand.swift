import AccountHandoff
import AccountHandoffQR
import AccountHandoffTransport
import Foundation

/// `handoff send --account FILE (--password-stdin | --password-file FILE)`: shows the QR and
/// the transfer code, waits for a receiver, asks the person to compare the code and to approve
/// the export, then sends the account.
enum SendCommand {
    static let specification = ArgumentSpecification(
        command: "send",
        valueOptions: ["--account", "--password-file", "--address", "--port", "--lifetime", "--ecc", "--svg", "--png", "--qr-style"],
        flags: ["--password-stdin", "--yes", "--no-qr"],
        positionals: 0...0, positionalName: "no arguments")

    /// The longest password the credential frame carries (1,024 bytes minus the length prefix).
    static let maximumPasswordByteCount = 1022

    static func run(_ arguments: [String], console: Console, input: StandardInput) throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        guard let accountPath = parsed.value("--account") else {
            throw .usage("'handoff send' needs --account FILE, a JSON file with the account's settings.", command: "send")
        }
        let passwordFile = parsed.value("--password-file")
        guard parsed.has("--password-stdin") != (passwordFile != nil) else {
            throw .usage("'handoff send' needs the password from exactly one of --password-stdin or --password-file FILE.", command: "send")
        }
        let level = try OptionValues.errorCorrection(parsed, command: "send")
        let palette = try OptionValues.palette(parsed, command: "send")
        let address = try OptionValues.address(parsed, command: "send")
        let port = try OptionValues.integer(parsed, "--port", in: 0...65535, default: 0, command: "send")
        let lifetime = try OptionValues.integer(parsed, "--lifetime", in: Int(SenderConfiguration.minimumLifetime)...Int(SenderConfiguration.maximumLifetime),
                                                default: Int(SenderConfiguration.standard.lifetime), command: "send")

        let account = try AccountRecord.load(accountPath)
        let password = try readPassword(file: passwordFile, input: input, console: console)
        defer { password.wipe() }
        Interrupt.install()  // from here on Ctrl-C cancels cleanly

        let listener: FrameListener
        do { listener = try FrameListener(address: address, port: UInt16(port), random: SystemRandomSource()) } catch {
            throw CLIError("Cannot listen on \(address):\(port): \(error.description)", exitCode: .failure)
        }
        let sender: HandoffSender
        do {
            sender = try HandoffSender.start(account: account, rendezvous: listener.rendezvous.token,
                                             configuration: SenderConfiguration(lifetime: UInt32(lifetime)),
                                             random: SystemRandomSource(), now: Date(), registry: SenderRegistry())
        } catch {
            throw CLIError("The transfer could not start: \(error.description)", exitCode: .failure)
        }
        let payload = sender.payload

        console.line("Sending this account:")
        Describe.account(account).forEach { console.line($0) }
        console.line("Password: \(passwordFile == nil ? "read from standard input" : "read from \(passwordFile!)") (not shown).")
        try showCode(payload, level: level, palette: palette, parsed: parsed, console: console)
        let seconds = Int(payload.expiry) - Int(Date().timeIntervalSince1970)
        console.line("Waiting for the receiving device on \(listener.rendezvous) (the code expires in \(Describe.duration(seconds))).")
        console.line("Press Ctrl-C to cancel.")

        let session = SendSession(sender: sender, account: account, listener: listener, credential: password,
                                  console: console, input: input, autoConfirm: parsed.has("--yes"))
        return session.run()
    }

    /// Draws the QR (unless `--no-qr`), writes the image files asked for, prints the code text.
    private static func showCode(_ payload: SessionPayload, level: QRErrorCorrection, palette: TerminalQRRenderer.Palette,
                                 parsed: ParsedArguments, console: Console) throws(CLIError) {
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
        console.line("Or run on the receiving computer: handoff receive \(payload.text)")
    }

    /// The password from standard input (first line) or a file, into guarded memory.
    private static func readPassword(file: String?, input: StandardInput, console: Console) throws(CLIError) -> SecretBytes {
        let password: SecretBytes?
        if let file {
            password = try PasswordFile.read(file, maximumByteCount: maximumPasswordByteCount, console: console)
        } else {
            password = try input.readSecretLine(maximumByteCount: maximumPasswordByteCount, console: console)
        }
        guard let password else {
            throw CLIError("The password is empty; put it on the first line of standard input or in the password file.", exitCode: .invalidInput)
        }
        return password
    }
}
