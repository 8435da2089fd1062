import AccountHandoff
import AccountHandoffQR
import AccountHandoffTransport
import Foundation

/// `handoff send --account FILE (--password-stdin | --password-file FILE)`, or
/// `handoff send --from-thunderbird [PROFILE] [--account EMAIL]`: shows the QR and the transfer
/// code, waits for a receiver, asks the person to type the code the receiving device shows,
/// then sends the account and, once the receiving person accepted it, the password.
enum SendCommand {
    static let specification = CommandManual.send.specification

    static func run(_ arguments: [String], console: Console, input: StandardInput) async throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        let thunderbird = parsed.value("--from-thunderbird")
        let accountPath = parsed.value("--account")
        let passwordFile = parsed.value("--password-file")
        if thunderbird == nil {
            guard accountPath != nil else {
                throw .usage(sentenceCatalog.sentence("send.usage.account", in: .cli), command: "send")
            }
            guard parsed.has("--password-stdin") != (passwordFile != nil) else {
                throw .usage(sentenceCatalog.sentence("send.usage.password", in: .cli), command: "send")
            }
        }
        let level = try OptionValues.errorCorrection(parsed, command: "send")
        let palette = try OptionValues.palette(parsed, command: "send")
        let choice = try ListenAddress.choose(parsed, command: "send")
        let relay = try RelayOption.choice(parsed, command: "send")
        let address = choice.address
        let port = try OptionValues.integer(parsed, "--port", in: 0...65535, default: 0, command: "send")
        let lifetime = try OptionValues.integer(parsed, "--lifetime", in: Int(SenderConfiguration.minimumLifetime)...Int(SenderConfiguration.maximumLifetime),
                                                default: Int(SenderConfiguration.standard.lifetime), command: "send")
        let codes = try OptionValues.integer(parsed, "--codes", in: 1...100, default: SenderSessionOptions.standard.maximumCodes, command: "send")
        try await blockingStep { () throws(CLIError) in try QRCommand.checkImageTargets(parsed) }

        let account: AccountMetadata
        let password: SecretBytes
        let passwordSource: String
        if let thunderbird {
            let held = try await ThunderbirdSource.load(parsed, selector: thunderbird, input: input, console: console)
            (account, password, passwordSource) = (held.metadata, held.password, sentenceCatalog.sentence("send.passwordSource.thunderbird", in: .cli))
            console.line(sentenceCatalog.sentence("send.sendingThis", in: .cli))
            OfferDisplay.lines(account).forEach { console.line($0) }
        } else {
            account = try await blockingStep { () throws(CLIError) in try AccountRecord.load(accountPath ?? "") }
            // The account first, so the person knows whose password is asked for.
            console.line(sentenceCatalog.sentence("send.sendingThis", in: .cli))
            OfferDisplay.lines(account).forEach { console.line($0) }
            password = try await blockingStep { () throws(CLIError) in try readPassword(of: account, file: passwordFile, input: input, console: console) }
            passwordSource = passwordFile.map { sentenceCatalog.sentence("send.passwordSource.file", .text($0), in: .cli) }
                ?? sentenceCatalog.sentence("send.passwordSource.stdin", in: .cli)
        }
        // The typed way beside the QR on the local network (Spec 11.10), when this device can offer it.
        let typedWay = await TypedWayChoice.choose(choice, relay: relay?.relay)
        let gate: LocalGate
        do { gate = try await LocalGate.prepare(parsed, console: console, command: "send") } catch {
            password.wipe()
            throw error
        }
        let listener: FrameListener
        do {
            listener = try FrameListener(address: address, port: UInt16(port), relay: relay?.relay, advertisesDirectAddress: !(relay?.relayOnly ?? false),
                                         typedWay: typedWay.announcer)
        } catch {
            password.wipe()
            throw RelayOption.listenFailure(error, address: address, port: port)
        }
        let rendezvous = listener.rendezvous
        let configuration: SenderConfiguration
        do { configuration = try SenderConfiguration(lifetime: UInt32(lifetime)) } catch {
            password.wipe()
            throw CLIError(error.message(for: .sender, in: .cli), exitCode: .usage)
        }
        let secret = PasswordHolder(password)
        // Standard input is read for answers only from here on (the password line came first).
        let asking = Asking(console: console, input: input, answers: AnswerQueue(input: input))
        let authenticator = gate.authenticator(asking: asking)
        let session = HandoffSenderSession(account: account, rendezvous: rendezvous.token,
                                           channel: listener,
                                           credential: { _ in try secret.copy() },
                                           authenticator: authenticator,
                                           // One transfer per process: its transfer IDs die with it.
                                           registry: .inMemory(),
                                           options: SenderSessionOptions(configuration: configuration, maximumCodes: codes,
                                                                         typedRoutes: typedWay.routes))
        console.line(sentenceCatalog.sentence("send.passwordLine", .text(passwordSource), in: .cli))
        let piped: PipedAnswers = passwordFile == nil && thunderbird == nil ? .passwordFromStandardInput : .passwordFromFile
        if !input.isTerminal { console.error(piped.warning) }
        let relayLines = relay.map { _ in RelayStatusLines(console: console) }
        let drawing = CodeDrawing(level: level, palette: palette, parsed: parsed, console: console,
                                  choice: choice, relay: relay, relayLines: relayLines, port: rendezvous.direct?.port ?? 0, maximumCodes: codes,
                                  typedUnavailable: typedWay.unavailable)
        defer { secret.wipe() }
        let relayStatus = relay.map { RelayOption.reportStatus(of: listener, relay: $0.relay, lines: relayLines!) }
        defer { relayStatus?.cancel() }
        let typedFailures = typedWay.reportFailures(console: console)
        defer {
            typedWay.announcer?.stop()
            typedFailures?.cancel()
        }
        return await SendFlow(session: session, account: account, drawing: drawing, asking: asking, piped: piped).run()
    }

    /// The password from standard input (first line) or a file, into guarded memory; its
    /// length is checked now, before anyone confirms anything.
    private static func readPassword(of account: AccountMetadata, file: String?, input: StandardInput, console: Console) throws(CLIError) -> SecretBytes {
        let maximum = HandoffSender.maximumCredentialByteCount
        let password: SecretBytes?
        if let file {
            password = try PasswordFile.read(file, maximumByteCount: maximum, console: console)
        } else {
            let prompt = sentenceCatalog.sentence("send.passwordPrompt", .text(account.emailAddress), in: .cli)
            password = try input.readSecretLine(prompt: prompt, maximumByteCount: maximum, console: console)
        }
        guard let password else {
            throw CLIError(sentenceCatalog.sentence("send.passwordEmpty", in: .cli), exitCode: .invalidInput)
        }
        return password
    }
}
