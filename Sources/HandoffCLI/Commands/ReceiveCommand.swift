import AccountHandoff
import AccountHandoffIMAPValidation
import AccountHandoffTransport
import Foundation

/// `handoff receive`: reads the transfer code (standard input, a prompt, or `--code-file`),
/// connects to the sender it names, shows the code and the offered account, settles a
/// collision with a stored account, asks the person to confirm, and imports the account.
enum ReceiveCommand {
    static let specification = CommandManual.receive.specification

    static func run(_ arguments: [String], console: Console, input: StandardInput) async throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(ScannedTransferCode.withCameraDevice(arguments))
        if let positional = parsed.positionals.first, positional != "-" {
            throw TransferCode.refusalOnCommandLine(command: "receive")
        }
        // --scan and --camera are checked before anything else is asked.
        _ = try ScannedTransferCode(parsed)
        if let profile = parsed.value("--into-thunderbird") {
            return try await ThunderbirdReceive.run(parsed, selector: profile, console: console, input: input)
        }
        let presetChoice = try conflictChoice(parsed)
        let validation = try await blockingStep { () throws(CLIError) in try Self.validation(parsed) }
        // The store is checked (and an interrupted import finished) before the code is asked for.
        let directory = try StorePath(option: parsed.value("--store"))
        let store = try await ReceiverStore.openForImport(directory, requested: try CredentialChoice.requested(parsed, command: "receive"),
                                                          console: console)
        let importer = ReceiverImport(store, validation: validation)
        var destination = ImportDestination(validates: importer.validates, place: sentenceCatalog.sentence("receive.storePlace", .text(importer.store.directory.path), in: .cli)) { account in
            try? await blockingStep { () throws(CLIError) in StoredPlace.sentence(for: account.linkID, in: store) }
        }
        destination.adviceAfterFailure = { importer.adviceAfterFailure }
        return try await transfer(parsed, importer: importer.coordinator, destination: destination,
                                  registryFolder: directory.url, presetChoice: presetChoice, console: console, input: input)
    }

    /// Reads the code, connects, and runs the receiver session with `importer`; the receiver
    /// registry (the codes used on this device) is kept in `registryFolder`.
    static func transfer<Importer: AccountImporter>(_ parsed: ParsedArguments, importer: Importer, destination: ImportDestination,
                                                     registryFolder: URL, presetChoice: ConflictAnswer?, console: Console,
                                                     input: StandardInput) async throws(CLIError) -> ExitCode
        where Importer.Preparation: ChoosingPreparation {
        let gate = try await LocalGate.prepare(parsed, console: console, command: "receive")
        let payload: SessionPayload
        switch try await ScannedTransferCode(parsed).entry(parsed, input: input, console: console) {
        case .transferCode(let scanned):
            payload = scanned
        case .typed(let code):
            return try await TypedReceive.transfer(code, parsed: parsed, gate: gate, importer: importer, destination: destination,
                                                   registryFolder: registryFolder, presetChoice: presetChoice, console: console, input: input)
        }
        let rendezvous: TCPRendezvous
        do { rendezvous = try TCPRendezvous(token: payload.rendezvous) } catch {
            throw CLIError(sentenceCatalog.sentence("receive.unreachableCode", .text(error.sentence(in: .cli)), in: .cli), exitCode: .invalidInput)
        }
        let registry = try await blockingStep { () throws(CLIError) in try receiverRegistry(in: registryFolder) }
        // Spec 2.5 checks expiry before the claim; before connecting, so that a code used here
        // is named as such even when its sender is gone (the connection would fail first).
        let skew = Double(ReceiverConfiguration.standard.clockSkewTolerance)
        if registry.hasClaimed(payload.transferID), Date().timeIntervalSince1970 < Double(payload.expiry) + skew {
            throw CLIError(ReceiverOutcome.ended(.failed(.alreadyScanned)).message(in: .cli), exitCode: .failure)
        }
        // Past the clock tolerance no sender still serves the code (Spec 2.5): say so, and how
        // long ago, before trying to connect.
        let left = Int(payload.expiry) - Int(Date().timeIntervalSince1970)
        let tolerance = Int(ReceiverConfiguration.standard.clockSkewTolerance)
        if left <= -tolerance {
            throw CLIError(ReceiverEndingWords.expiredLongAgo(seconds: -left), exitCode: .expired)
        }
        console.line(sentenceCatalog.sentence("receive.transferLine", .text("\(payload.transferID)"), .text("\(rendezvous)"),
                                              .text(ReceiverEndingWords.timeLeft(seconds: left, tolerance: tolerance)), in: .cli))
        // Standard input is read for answers only from here on (the code line came first).
        let asking = Asking(console: console, input: input, answers: AnswerQueue(input: input))
        let authenticator = gate.authenticator(asking: asking)
        let piped: PipedAnswers = parsed.value("--code-file") == nil && parsed.value(ScannedTransferCode.scanOption) == nil
            && parsed.value(ScannedTransferCode.cameraOption) == nil ? .codeFromStandardInput : .codeFromFile
        if !input.isTerminal { console.error(piped.warning) }
        let connectFailure = ConnectFailure()
        let session = HandoffReceiverSession(payload: payload, importer: importer,
                                             authenticator: authenticator,
                                             registry: registry) { payload in
            do { return try await ConnectionFrameChannel.connect(to: payload, progress: { console.line(ConnectionWords.sentence($0)) }) } catch let error as TransportError {
                connectFailure.record(error)
                // The sender serves another code (Spec 11.4): renewed, or this copy was changed.
                guard error == .codeRenewed else { throw error }
                throw HandoffError.expired
            }
        }
        let flow = ReceiveFlow(session: session, destination: destination, presetConflictChoice: presetChoice, asking: asking,
                               piped: piped, rendezvous: rendezvous, connectFailure: connectFailure)
        let code = await flow.run()
        return code
    }

    /// `--on-conflict replace|keep|cancel`: `nil` when not given (the person is asked).
    static func conflictChoice(_ parsed: ParsedArguments) throws(CLIError) -> ConflictAnswer? {
        guard let text = parsed.value("--on-conflict") else { return nil }
        switch text {
        case "replace": return .replace
        case "keep", "keep-both": return .keepBoth
        case "cancel": return .cancel
        default: throw .usage(sentenceCatalog.sentence("receive.usage.onConflict", in: .cli), command: "receive")
        }
    }

    /// How the account is checked before the commit: a TLS login trusting the system's
    /// authorities (or `--ca-file`), plaintext only with `--allow-plaintext`, or nothing with
    /// `--no-validation`.
    static func validation(_ parsed: ParsedArguments) throws(CLIError) -> ReceiverImport.Validation {
        if parsed.has("--no-validation") {
            guard parsed.value("--ca-file") == nil, !parsed.has("--allow-plaintext") else {
                throw .usage(sentenceCatalog.sentence("receive.usage.noValidation", in: .cli), command: "receive")
            }
            return .skipped
        }
        var configuration = IMAPValidatorConfiguration()
        if let path = parsed.value("--ca-file") {
            configuration.trust = .certificateAuthorityFile(URL(fileURLWithPath: path))
            // Checked before the code is asked for; the session checks again before the password travels.
            do { try IMAPValidator(configuration: configuration).checkReady() } catch {
                throw CLIError(error.readinessSentence, exitCode: .invalidInput)
            }
        }
        if parsed.has("--allow-plaintext") { configuration.plaintext = .allowWhenServerOffersNoTLS }
        return .imap(configuration)
    }

    /// The receiver registry kept in the (prepared) store directory, so a code works once on
    /// this device even across runs.
    static func receiverRegistry(in directory: URL) throws(CLIError) -> ReceiverRegistry {
        do {
            return try ReceiverRegistry(storage: FileRegistryStorage(path: directory.appendingPathComponent("scanned-codes").path))
        } catch {
            throw CLIError(error.message(for: .receiver, in: .cli), exitCode: .failure)
        }
    }
}
