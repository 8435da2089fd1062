import AccountHandoff
import AccountHandoffQR
import AccountHandoffTransport
import Foundation

/// `handoff send --account FILE (--password-stdin | --password-file FILE)`: shows the QR and
/// the transfer code, waits for a receiver, asks the person to compare the code (or type the
/// code the receiving device shows) and to approve the export, then sends the account.
enum SendCommand {
    static let specification = ArgumentSpecification(
        command: "send",
        valueOptions: ["--account", "--password-file", "--address", "--port", "--lifetime", "--ecc", "--svg", "--png", "--qr-style"],
        flags: ["--password-stdin", "--lan", "--no-qr", "--yes"],
        positionals: 0...0, positionalName: "no arguments")

    static func run(_ arguments: [String], console: Console, input: StandardInput) async throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        if parsed.has("--yes") {
            throw CLIError("'handoff send' never confirms a code by itself: whoever joined first would get the password. Compare the codes and answer, or type the code the receiving device shows. ('handoff demo --yes' answers for you, because both ends are its own processes.)", exitCode: .usage)
        }
        guard let accountPath = parsed.value("--account") else {
            throw .usage("'handoff send' needs --account FILE, a JSON file with the account's settings.", command: "send")
        }
        let passwordFile = parsed.value("--password-file")
        guard parsed.has("--password-stdin") != (passwordFile != nil) else {
            throw .usage("'handoff send' needs the password from exactly one of --password-stdin or --password-file FILE.", command: "send")
        }
        let level = try OptionValues.errorCorrection(parsed, command: "send")
        let palette = try OptionValues.palette(parsed, command: "send")
        let choice = try ListenAddress.choose(parsed, command: "send")
        let address = choice.address
        let port = try OptionValues.integer(parsed, "--port", in: 0...65535, default: 0, command: "send")
        let lifetime = try OptionValues.integer(parsed, "--lifetime", in: Int(SenderConfiguration.minimumLifetime)...Int(SenderConfiguration.maximumLifetime),
                                                default: Int(SenderConfiguration.standard.lifetime), command: "send")

        let account = try AccountRecord.load(accountPath)
        let password = try readPassword(file: passwordFile, input: input, console: console)
        let listener: FrameListener
        do { listener = try FrameListener(address: address, port: UInt16(port)) } catch {
            password.wipe()
            throw CLIError("Cannot listen on \(address):\(port): \(error.description)", exitCode: .failure)
        }
        let rendezvous = listener.rendezvous
        let session: HandoffSenderSession
        do {
            session = try HandoffSenderSession(account: account, rendezvous: rendezvous.token, channel: listener,
                                               configuration: SenderConfiguration(lifetime: UInt32(lifetime)),
                                               registry: SenderRegistry())
            // Spec 11.4: connections are challenged with keys derived from the QR.
            listener.setKeys(try TransportKeys(payload: session.payload))
        } catch {
            password.wipe()
            throw CLIError("The transfer could not start: \(error.message(for: .sender))", exitCode: .failure)
        }

        console.line("Sending this account:")
        OfferDisplay.lines(account).forEach { console.line($0) }
        console.line("Password: \(passwordFile.map { "read from \($0)" } ?? "read from standard input") (not shown).")
        do {
            try showCode(session.payload, level: level, palette: palette, parsed: parsed, console: console)
        } catch {
            password.wipe()
            await session.cancel()
            throw error
        }
        let seconds = Int(session.payload.expiry) - Int(Date().timeIntervalSince1970)
        console.line(choice.description + " Waiting for the receiving device on port \(rendezvous.direct?.port ?? 0) (the code expires in \(Durations.text(seconds))).")
        console.line("Press Ctrl-C to cancel.")
        return await SendFlow(session: session, account: account, password: password, console: console, input: input).run()
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
        console.line("Or, on the receiving computer, run 'handoff receive' and paste this code when it asks (never put it on a command line).")
    }

    /// The password from standard input (first line) or a file, into guarded memory; its
    /// length is checked now, before anyone confirms anything.
    private static func readPassword(file: String?, input: StandardInput, console: Console) throws(CLIError) -> SecretBytes {
        let maximum = HandoffSender.maximumCredentialByteCount
        let password: SecretBytes?
        if let file {
            password = try PasswordFile.read(file, maximumByteCount: maximum, console: console)
        } else {
            password = try input.readSecretLine(maximumByteCount: maximum, console: console)
        }
        guard let password else {
            throw CLIError("The password is empty; put it on the first line of standard input or in the password file.", exitCode: .invalidInput)
        }
        return password
    }
}
