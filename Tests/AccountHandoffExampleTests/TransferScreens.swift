import AccountHandoff
import AccountHandoffImport
import AccountHandoffQR
import Foundation

// The README's integration example: a whole app's transfer screens, compiled and run by
// TransferScreensTests. The README shows the code between the markers verbatim.

// README:begin example
/// The sending device's "Transfer account" screen.
@MainActor final class SendingScreen {
    private(set) var qrSVG = ""            // a new code replaces it when one expires unscanned
    private(set) var qrText = ""           // the same code as text, to paste on another computer
    private(set) var expires = Date.distantPast
    private(set) var asksForCode = false   // show a field for the six digits on the other screen
    private(set) var status = ""
    private let session: HandoffSenderSession

    init(account: AccountMetadata, channel: any FrameChannel, rendezvous: RendezvousToken, keychain: @escaping CredentialReader,
         gate: any LocalAuthenticator, registry: SenderRegistry, clock: any HandoffClock = SystemHandoffClock()) {
        session = HandoffSenderSession(account: account, rendezvous: rendezvous, channel: channel, credential: keychain,
                                       authenticator: gate, registry: registry, clock: clock)
    }

    func run() async -> SenderOutcome {
        let updates = Task { for await update in session.updates { show(update) } }
        let outcome = await session.run()
        await updates.value
        return outcome
    }

    func typed(_ code: String) async {
        do {
            if case .mismatch(let left) = try await session.enterCode(code) {
                status = "That is not the code on the other device; \(left) more tries."
            }
        } catch { status = error.localizedDescription }
    }

    func cancel() async { await session.cancel() }

    private func show(_ update: SenderUpdate) {
        switch update {
        case .showCode(let payload, _, _):
            qrSVG = (try? SVGQRRenderer().render(QRMatrix(payload: payload))) ?? ""
            qrText = payload.text
            expires = payload.expiryDate
            status = "Scan this code with the other device."
        case .receiverJoined: (asksForCode, status) = (true, "Type the code shown on the other device.")
        case .offerSent(let code): (asksForCode, status) = (false, "Code \(code.grouped) confirmed; waiting.")
        case .authenticating: status = "Confirm it is you to send the password."
        case .credentialSent: status = "Password sent; waiting for the other device to confirm."
        case .anotherDeviceJoined: status = "Another device also scanned the code; it got nothing."
        case .finished(let outcome): (asksForCode, status) = (false, outcome.message)
        case .codeMismatch, .framesIgnored, .typedCodeRetired, .typedCodeReplaced, .typedWayWithdrawn, .pairedByTypedCode: break
        }
    }
}

/// The receiving device's "Receive account" screen.
@MainActor final class ReceivingScreen {
    private(set) var code = ""             // show it large: the other person types it
    private(set) var offered: AccountMetadata?
    private(set) var conflict: ImportConflict?  // show it beside the offer, with its choices
    private(set) var status = ""
    private let session: HandoffReceiverSession<ImportCoordinator>
    private var prepared: PreparedImport?

    init(scanned: String, importer: ImportCoordinator, gate: any LocalAuthenticator, registry: ReceiverRegistry,
         clock: any HandoffClock = SystemHandoffClock(), connect: @escaping HandoffReceiverSession<ImportCoordinator>.Connector) throws {
        session = try HandoffReceiverSession(scannedText: scanned, importer: importer, authenticator: gate,
                                             registry: registry, clock: clock, connect: connect)
    }

    func run() async -> ReceiverOutcome {
        let updates = Task { for await update in session.updates { show(update) } }
        let outcome = await session.run()
        await updates.value
        return outcome
    }

    /// Import, with the person's choice when the offer conflicts with a stored account.
    func accept(_ choice: ImportChoice? = nil) async {
        do {
            if let choice { try prepared?.choose(choice) }
            try await session.accept()
        } catch { status = error.localizedDescription }
    }

    func decline() async { try? await session.reject() }
    func cancel() async { await session.cancel() }

    private func show(_ update: ReceiverUpdate<PreparedImport>) {
        switch update {
        case .connected: status = "Connected; waiting for the other device."
        case .codeReady(let shown): (code, status) = (shown.grouped, "Type this code on the other device.")
        case .accountOffered(let account, let prepared):
            (offered, conflict, self.prepared) = (account, prepared.conflict, prepared)
            status = "Import this account?"
        case .authenticating: status = "Confirm it is you to import the account."
        case .accepted: status = "Waiting for the password."
        case .importing: status = "Checking the account with its mail server."
        case .finished(let outcome, let detail): status = detail ?? outcome.message
        case .framesIgnored: break
        }
    }
}
// README:end example
