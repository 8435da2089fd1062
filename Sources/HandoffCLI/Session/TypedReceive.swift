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
    static func transfer<Importer: AccountImporter>(_ code: TypedCode, parsed: ParsedArguments, importer: Importer,
                                                    destination: ImportDestination, registry: ReceiverRegistry,
                                                    presetChoice: ConflictAnswer?, console: Console,
                                                    input: StandardInput) async throws(CLIError) -> ExitCode
        where Importer.Preparation: ChoosingPreparation {
        if registry.hasClaimed(code.claimID) {
            code.wipe()
            throw CLIError(HandoffError.typedCodeAlreadyUsed.message(for: .receiver), exitCode: .failure)
        }
        if let failure = await DNSSDAvailability.check() {
            code.wipe()
            throw CLIError("This device cannot look for the sending device on the network, so nothing was sent and the code still works. \(failure.description)", exitCode: .failure)
        }
        let nameplate = code.nameplate
        console.line("Looking on this network for the device that shows a code starting with \(nameplate) (\(ReceiverDiscovery.browsingTime.components.seconds) seconds)...")
        let endpoint: TCPRendezvous.Endpoint
        do { endpoint = try await TypedSenderSearch.find(nameplate) } catch {
            code.wipe()
            throw CLIError(error.description, exitCode: .failure)
        }
        console.line("Found it at \(endpoint); connecting...")
        let asking = Asking(console: console, input: input, answers: AnswerQueue(input: input))
        let authenticator: any LocalAuthenticator
        do { authenticator = try LocalGate.authenticator(parsed, asking: asking, command: "receive") } catch {
            code.wipe()
            throw error
        }
        let session = HandoffReceiverSession(typedCode: code, route: .localNetwork, importer: importer, authenticator: authenticator,
                                             registry: registry) { _, _ in
            try await ConnectionFrameChannel.connectTyped(to: endpoint)
        }
        return await ReceiveFlow(session: session, destination: destination, presetConflictChoice: presetChoice, asking: asking).run()
    }
}
