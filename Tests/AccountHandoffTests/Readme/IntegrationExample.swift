import AccountHandoff
import Foundation

// The README's integration example, compiled and run by ReadmeExampleTests. The README shows
// the code between the markers verbatim; the protocols below stand for the app's own parts.

/// The app's screens (SwiftUI or UIKit views in a real app).
@MainActor protocol TransferUI: AnyObject {
    func showQR(_ text: String, expires: Date)
    func showCode(_ grouped: String, accessibilityLabel: String)
    func showAccount(_ account: AccountMetadata)
    func showStatus(_ sentence: String)
    func showOutcome(_ sentence: String, success: Bool)
}

/// The app's local authentication and password store on the sending device.
protocol SenderDevice: Sendable {
    /// Asks for Face ID, Touch ID or the passcode, then reads the password; `nil` if refused.
    func reauthenticateAndReadPassword() async -> SecretBytes?
}

// README:begin sender
/// The sending device's transfer screen: show the QR, show the code, confirm, send.
@MainActor final class SendAccountController {
    private let session: HandoffSenderSession
    private let ui: TransferUI
    private let device: SenderDevice

    /// Call after the person chose "Transfer account" and passed local authentication.
    init(account: AccountMetadata, rendezvous: RendezvousToken, channel: any FrameChannel,
         registry: SenderRegistry, ui: TransferUI, device: SenderDevice, clock: any HandoffClock) throws {
        session = try HandoffSenderSession(account: account, rendezvous: rendezvous, channel: channel,
                                           registry: registry, clock: clock)
        (self.ui, self.device) = (ui, device)
        ui.showQR(session.payload.text, expires: session.payload.expiryDate)
    }

    /// Runs the transfer to its end; the outcome's sentence is true whatever the other device did.
    func run() async -> SenderOutcome {
        let updates = Task { for await update in session.updates { await show(update) } }
        let outcome = await session.run()
        await updates.value
        return outcome
    }

    func personConfirmedCode() async { try? await session.confirmCode() }
    func personSawDifferentCodes() async { try? await session.rejectCode() }
    func personCancelled() async { await session.cancel() }

    private func show(_ update: SenderUpdate) async {
        switch update {
        case .waitingForReceiver: ui.showStatus("Scan this code with the other device.")
        case .codeReady(let code): ui.showCode(code.grouped, accessibilityLabel: code.spoken)
        case .offerSent: ui.showStatus("Waiting for the other device to accept the account.")
        case .credentialRequested:
            // Both people confirmed: authenticate again right before the password leaves.
            guard let password = await device.reauthenticateAndReadPassword() else { return await session.cancel() }
            try? await session.provideCredential(password)
        case .credentialSent: ui.showStatus("Password sent; waiting for the other device to confirm.")
        case .anotherDeviceJoined: ui.showStatus("Another device also scanned this code; it received nothing.")
        case .framesIgnored: break  // junk or a stray connection: the transfer goes on
        case .finished(let outcome): ui.showOutcome(outcome.message, success: outcome == .completed(.imported))
        }
    }
}
// README:end sender

// README:begin receiver
/// The receiving device's transfer screen: scan, compare the code, review, import.
@MainActor final class ReceiveAccountController {
    private let session: HandoffReceiverSession
    private let ui: TransferUI

    /// Call with the scanned QR text after the person chose "Receive an account".
    init(scannedText: String, importer: any AccountImporter, registry: ReceiverRegistry, ui: TransferUI,
         clock: any HandoffClock, connect: @escaping HandoffReceiverSession.Connector) throws {
        session = try HandoffReceiverSession(scannedText: scannedText, importer: importer, registry: registry,
                                             clock: clock, connect: connect)
        self.ui = ui
    }

    func run() async -> ReceiverOutcome {
        let updates = Task { for await update in session.updates { show(update) } }
        let outcome = await session.run()
        await updates.value
        return outcome
    }

    func personConfirmedCodeAndAccount() async { try? await session.accept() }
    func personSawDifferentCodes() async { try? await session.reject() }
    func personCancelled() async { await session.cancel() }

    private func show(_ update: ReceiverUpdate) {
        switch update {
        case .connected: ui.showStatus("Connected; waiting for the code.")
        case .codeReady(let code): ui.showCode(code.grouped, accessibilityLabel: code.spoken)
        case .accountOffered(let account): ui.showAccount(account)  // with the code and the expiry
        case .accepted: ui.showStatus("Waiting for the password.")
        case .importing: ui.showStatus("Importing and checking the account with its mail server.")
        case .framesIgnored: break
        case .finished(let outcome): ui.showOutcome(outcome.message, success: outcome == .completed(.imported))
        }
    }
}
// README:end receiver
