// The client-app integration example shown in README.md. The code between the README markers
// is compared with the README by ReadmeExampleTests, so the README can never show code that
// does not compile or does not work.
import AccountHandoff
import Foundation

/// The app's byte channel to the other device (local network, Bluetooth, a relay...).
protocol FrameTransport: AnyObject { func send(_ frame: [UInt8]) }

/// The app's screens.
protocol TransferUI: AnyObject {
    func showQR(_ text: String, expires: Date)
    func showCode(_ grouped: String, accessibilityLabel: String)
    func showAccount(_ account: AccountMetadata)
    func showOutcome(_ outcome: TransferOutcome)
    func showError(_ sentence: String)
}

/// The app's local authentication (Face ID, Touch ID, passcode) and Keychain access.
protocol SenderDevice: AnyObject {
    /// Authenticates the person again and returns the account password in guarded memory.
    func reauthenticateAndReadPassword(then: @escaping (SecretBytes) -> Void)
}

/// The receiving app's account storage.
protocol ReceiverDevice: AnyObject {
    /// Stores metadata and credential (device-bound Keychain item), validates over IMAP.
    func importAccount(_ account: ImportedAccount) -> ReceiptStatus
}

// README:begin sender
final class SenderController {
    private let sender: HandoffSender
    private let transport: FrameTransport
    private let ui: TransferUI
    private let device: SenderDevice

    /// Call after the person chose "Transfer account" and passed local authentication.
    init(account: AccountMetadata, rendezvous: RendezvousToken, registry: SenderRegistry,
         transport: FrameTransport, ui: TransferUI, device: SenderDevice) throws {
        sender = try HandoffSender.start(account: account, rendezvous: rendezvous,
                                         random: SystemRandomSource(), now: Date(), registry: registry)
        (self.transport, self.ui, self.device) = (transport, ui, device)
        ui.showQR(sender.payload.text, expires: sender.payload.expiryDate)
    }

    func frameArrived(_ frame: [UInt8]) { feed(.frameReceived(frame)) }
    func personConfirmedCode() { feed(.codeConfirmed) }
    func personSawDifferentCodes() { feed(.codeRejected) }
    func personCancelled() { feed(.cancel) }
    func timerFired() { feed(.tick) }

    private func feed(_ event: HandoffSender.Event) {
        do {
            for action in try sender.handle(event, now: Date()) {
                switch action {
                case .send(let frame): transport.send(frame)
                case .showShortCode(let code): ui.showCode(code.grouped, accessibilityLabel: code.spoken)
                case .requestCredential:
                    // Both people confirmed: authenticate again right before the password leaves.
                    device.reauthenticateAndReadPassword { self.feed(.credentialProvided($0)) }
                case .finished(let outcome): ui.showOutcome(outcome)
                case .ignored: break  // junk, replay or a stray connection: the session goes on
                case .showAccount, .deliverAccount: break  // receiver only
                }
            }
        } catch {
            ui.showError(error.description)
        }
    }
}
// README:end sender

// README:begin receiver
final class ReceiverController {
    private let receiver: HandoffReceiver
    private let transport: FrameTransport
    private let ui: TransferUI
    private let device: ReceiverDevice

    /// Call with the scanned QR text after the person chose "Receive an account".
    init(scannedText: String, registry: ReceiverRegistry,
         transport: FrameTransport, ui: TransferUI, device: ReceiverDevice) throws {
        let payload = try SessionPayload(text: scannedText)
        let (receiver, actions) = try HandoffReceiver.scan(payload: payload, random: SystemRandomSource(),
                                                           now: Date(), registry: registry)
        (self.receiver, self.transport, self.ui, self.device) = (receiver, transport, ui, device)
        perform(actions)
    }

    func frameArrived(_ frame: [UInt8]) { feed(.frameReceived(frame)) }
    func personConfirmedCodeAndAccount() { feed(.codeConfirmed) }
    func personSawDifferentCodes() { feed(.codeRejected) }
    func personCancelled() { feed(.cancel) }

    private func feed(_ event: HandoffReceiver.Event) {
        do { perform(try receiver.handle(event, now: Date())) } catch { ui.showError(error.description) }
    }

    private func perform(_ actions: [HandoffAction]) {
        for action in actions {
            switch action {
            case .send(let frame): transport.send(frame)
            case .showShortCode(let code): ui.showCode(code.grouped, accessibilityLabel: code.spoken)
            case .showAccount(let account): ui.showAccount(account)  // with the code and the expiry
            case .deliverAccount(let imported):
                // Store now: the credential buffer is wiped when the session ends.
                feed(.importFinished(device.importAccount(imported)))
            case .finished(let outcome): ui.showOutcome(outcome)
            case .ignored, .requestCredential: break
            }
        }
    }
}
// README:end receiver
