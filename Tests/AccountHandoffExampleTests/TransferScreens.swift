// The README's integration example: a whole app (its wiring and both transfer screens), compiled
// and run by TransferScreensTests. The README shows the code between the markers verbatim.

// README:begin example
import AccountHandoff
import AccountHandoffImport
import AccountHandoffQR
import AccountHandoffReferenceStore
import AccountHandoffTransport
import Foundation

/// The app's wiring: one of each per device, durable, in the app's own directory. The gate is
/// `DeviceOwnerGate { question, purpose in ... }` (AccountHandoffLocalAuthentication): Face ID,
/// Touch ID or the passcode on Apple platforms, the login password through PAM on Linux.
/// Opening it reads files, so the app makes it off the main thread, on the I/O pool:
/// `try await BlockingIOPool.shared.run { _ in try Handoff(directory: ..., gate: ..., validator: ...) }`.
struct Handoff {
    let senderRegistry: SenderRegistry
    let receiverRegistry: ReceiverRegistry
    let importer: ImportCoordinator
    let gate: any LocalAuthenticator
    var transport = TransportConfiguration.standard  // the listener's and connection's timeouts

    init(directory: URL, gate: any LocalAuthenticator, validator: any AccountValidator) throws {
        senderRegistry = try SenderRegistry(directory: directory)
        receiverRegistry = try ReceiverRegistry(directory: directory)
        let store = try ReferenceAccountStore.open(at: directory.appendingPathComponent("accounts"))  // Apple: the Keychain store
        importer = ImportCoordinator(metadataStore: store, credentialStore: store, validator: validator)
        self.gate = gate
    }

    /// The sending screen for `account`, listening on the local network's `address`.
    @MainActor func send(_ account: AccountMetadata, on address: IPv4Address, keychain: @escaping CredentialReader) throws -> SendingScreen {
        SendingScreen(try HandoffSenderSession(account: account, listeningOn: address, credential: keychain,
                                               authenticator: gate, registry: senderRegistry, transport: transport))
    }

    /// The receiving screen for a scanned QR's text.
    @MainActor func receive(_ scanned: String) throws -> ReceivingScreen {
        ReceivingScreen(try HandoffReceiverSession(scannedText: scanned, importer: importer, authenticator: gate,
                                                   registry: receiverRegistry, transport: transport))
    }
}

/// The sending device's "Transfer account" screen: its view draws `model.snapshot` (the QR,
/// renewed when one expires unscanned) and `status`, and a field for the other screen's code
/// while `model.snapshot.stage == .typingCode`. Its `.task { await screen.run() }` cancels the
/// transfer when the view goes away.
@MainActor final class SendingScreen {
    let model: SenderModel
    private(set) var typedAnswer = ""  // shown under the field
    private let session: HandoffSenderSession

    init(_ session: HandoffSenderSession) { (self.session, model) = (session, SenderModel(following: session)) }

    func run() async -> SenderOutcome { await session.run() }
    func cancel() async { await session.cancel() }
    func typed(_ code: String) async {
        do {
            if case .mismatch(let left) = try await session.enterCode(code) { typedAnswer = "That is not the code on the other device; \(left) more tries." }
        } catch { typedAnswer = error.localizedDescription }
    }

    var qrSVG: String { model.snapshot.code.flatMap { try? SVGQRRenderer().render(QRMatrix(payload: $0)) } ?? "" }
    var status: String {
        switch model.snapshot.stage {
        case .starting, .showingCode: "Scan this code with the other device."
        case .typingCode: "Type the code shown on the other device."
        case .waitingForAccept(let code): "Code \(code.grouped) confirmed; waiting for the other device."
        case .typedCodeMatched: "The other device typed the right code; waiting for it to accept."
        case .receiverAccepted: model.snapshot.receiverGate?.sentence(shownBy: .sender) ?? "The other device accepted."
        case .authenticating:
            (model.snapshot.receiverGate?.sentence(shownBy: .sender).map { $0 + " " } ?? "") + "Confirm it is you to send the password."
        case .passwordSent: "Password sent; waiting for the other device to confirm."
        case .finished(let outcome) where outcome.passwordLeft == .mayHave: "\(outcome.message) The other device may hold the password."
        case .finished(let outcome): outcome.message
        }
    }
}

/// The receiving device's "Receive account" screen: its view draws `model.snapshot` (the code,
/// the offered account, its conflict with the choices) and `status`.
@MainActor final class ReceivingScreen {
    let model: ReceiverModel<PreparedImport>
    private(set) var refusal = ""  // why the person's last decision did not go through
    private let session: HandoffReceiverSession<ImportCoordinator>

    init(_ session: HandoffReceiverSession<ImportCoordinator>) { (self.session, model) = (session, ReceiverModel(following: session)) }

    func run() async -> ReceiverOutcome { await session.run() }
    func cancel() async { await session.cancel() }
    /// Import, with the person's choice when the offer conflicts with a stored account;
    /// `.cancel` declines it (with or without a conflict).
    func accept(_ choice: ImportChoice? = nil) async {
        do { try await session.accept(choosing: choice) } catch { refusal = error.localizedDescription }
    }

    var status: String {
        switch model.snapshot.stage {
        case .connecting, .connected: "Connecting to the other device."
        case .showingCode: "Type \(model.snapshot.code?.grouped ?? "") on the other device."
        case .reviewing:
            (model.snapshot.senderGate?.sentence(shownBy: .receiver).map { $0 + " " } ?? "")
                + (model.snapshot.preparation?.conflict == nil ? "Import this account?" : "Replace the similar account, keep both, or cancel?")
        case .authenticating: "Confirm it is you to import the account."
        case .waitingForPassword: "Waiting for the password."
        case .importing: "Checking the account with its mail server."
        case .finished(let outcome, let detail): detail ?? outcome.message
        }
    }
}
// README:end example
