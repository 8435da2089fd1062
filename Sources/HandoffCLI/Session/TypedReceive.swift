import AccountHandoff
import AccountHandoffDiscovery
import AccountHandoffImport
import AccountHandoffTransport
import Foundation

/// `handoff receive` with the short code the receiving person typed (Spec 6.8, 11.10): find
/// the one device on the local network that shows the code's nameplate, connect, and run the
/// typed receiver session. Nothing is sent before the sending device's `pakeInit`; a code this
/// device already ran, a search that finds none or several devices, and a daemon that is not
/// running all end before any connection, so none of them uses the code.
enum TypedReceive {
    /// How long a receiving device waits at the relay for the sending device: it waits there
    /// all the time its typed way is open (Spec 11.10), so pairing is at once when it exists.
    static let relayWait: TimeInterval = 20

    static func transfer<Importer: AccountImporter>(_ code: TypedCode, parsed: ParsedArguments, gate: LocalGate, importer: Importer,
                                                    destination: ImportDestination, registryFolder: URL,
                                                    presetChoice: ConflictAnswer?, console: Console,
                                                    input: StandardInput) async throws(CLIError) -> ExitCode
        where Importer.Preparation: ChoosingPreparation {
        let registry: ReceiverRegistry
        do { registry = try await blockingStep { () throws(CLIError) in try ReceiveCommand.receiverRegistry(in: registryFolder) } } catch {
            code.wipe()
            throw error
        }
        if registry.hasClaimed(code.claimID) {
            code.wipe()
            throw CLIError(HandoffError.typedCodeAlreadyUsed.message(for: .receiver), exitCode: .failure)
        }
        let relay: TCPRendezvous.Relay?
        do { relay = try RelayOption.choice(parsed, command: "receive")?.relay } catch {
            code.wipe()
            throw error
        }
        let nameplate = code.nameplate
        var route = TypedRoute.localNetwork
        var endpoint: TCPRendezvous.Endpoint?
        if let failure = await DNSSDAvailability.check() {
            guard let relay else {
                code.wipe()
                throw CLIError(sentenceCatalog.sentence("typed.cannotSearch", .text(failure.sentence(in: .cli)), in: .cli), exitCode: .failure)
            }
            console.line(sentenceCatalog.sentence("typed.meetAtRelay.noSearch", .text("\(relay)"), in: .cli))
            route = .relay
        } else {
            console.line(sentenceCatalog.sentence("typed.looking", .text("\(nameplate)"), .number(ReceiverDiscovery.browsingTime.components.seconds), in: .cli))
            do {
                endpoint = try await TypedSenderSearch.find(nameplate)
                console.line(sentenceCatalog.sentence("typed.found", .text("\(endpoint!)"), in: .cli))
            } catch .notFound where relay != nil {
                console.line(sentenceCatalog.sentence("typed.meetAtRelay.notFound", .text("\(relay!)"), in: .cli))
                route = .relay
            } catch {
                code.wipe()
                throw CLIError(error.sentence(in: .cli), exitCode: .failure)
            }
        }
        let asking = Asking(console: console, input: input, answers: AnswerQueue(input: input))
        let authenticator = gate.authenticator(asking: asking)
        let piped: PipedAnswers = parsed.value("--code-file") == nil ? .codeFromStandardInput : .codeFromFile
        if !input.isTerminal { console.error(piped.warning) }
        // Where the sending device was found: its address, or the relay (for the ending's words).
        let rendezvous: TCPRendezvous
        do { rendezvous = try TCPRendezvous(direct: route == .localNetwork ? endpoint : nil, relay: route == .relay ? relay : nil) } catch {
            code.wipe()
            throw CLIError(sentenceCatalog.sentence("typed.cannotName", .text(error.sentence(in: .cli)), in: .cli), exitCode: .failure)
        }
        let connectFailure = ConnectFailure()
        let pairing = Date().addingTimeInterval(Self.relayWait)
        let found = endpoint
        let session = HandoffReceiverSession(typedCode: code, route: route, importer: importer, authenticator: authenticator,
                                             registry: registry) { nameplate, route in
            switch route {
            case .localNetwork:
                guard let found else { throw HandoffError.senderUnreachable }
                do { return try await ConnectionFrameChannel.connectTyped(to: found) } catch let error as TransportError {
                    connectFailure.record(error)
                    throw error
                }
            case .relay:
                guard let relay else { throw HandoffError.senderUnreachable }
                do { return try await ConnectionFrameChannel.connectTyped(throughRelay: relay, nameplate: nameplate, pairingDeadline: pairing) }
                catch let error as TransportError {
                    connectFailure.record(error)
                    throw error
                }
            }
        }
        return await ReceiveFlow(session: session, destination: destination, presetConflictChoice: presetChoice, asking: asking,
                                 piped: piped, rendezvous: rendezvous, connectFailure: connectFailure).run()
    }
}
