import Foundation

/// Why a session driver asks its person to authenticate on this device (Spec 8.7): the
/// points where the customer's Track B puts a biometric or passcode gate.
public enum LocalAuthenticationPurpose: Sendable, Hashable {
    /// The sending device is about to show a transfer QR for `account` (optional gate).
    case showTransferCode(AccountMetadata)
    /// The sending device is about to read the password of `account` and send it, sealed,
    /// to the receiving device that both people confirmed. `receiverGate` is what that device
    /// declared in its accept (Spec 3.6): whether it asked its person to prove who they are.
    case sendCredential(AccountMetadata, receiverGate: GateDeclaration)
    /// The receiving device is about to accept `account`: once it does, the password travels
    /// and is written to this device's store.
    case receiveCredential(AccountMetadata)

    /// The account the authentication is for.
    public var account: AccountMetadata {
        switch self {
        case .showTransferCode(let account), .sendCredential(let account, _), .receiveCredential(let account): account
        }
    }

    /// A sentence for the system's prompt (for example `LAContext`'s localized reason), in the
    /// process's language: what will happen once the person authenticates. Never holds a secret.
    public var reason: String { reason(in: .current) }

    /// A sentence for the system's prompt in `language`: what will happen once the person
    /// authenticates, and, before a password leaves for a receiving device that declared
    /// ``GateDeclaration/skipped``, that nobody was asked there (Spec 3.6). Never holds a secret.
    /// - Parameter language: The language of the sentence.
    /// - Returns: For example "Send the password of ada@example.org to the receiving device."
    public func reason(in language: HandoffLanguage) -> String {
        switch self {
        case .showTransferCode(let account):
            return sentenceCatalog.sentence("gate.reason.showTransferCode", .text(account.emailAddress), in: language)
        case .sendCredential(let account, let receiverGate):
            let reason = sentenceCatalog.sentence("gate.reason.sendCredential", .text(account.emailAddress), in: language)
            guard let warning = receiverGate.sentence(shownBy: .sender, in: language) else { return reason }
            return reason + " " + warning
        case .receiveCredential(let account):
            return sentenceCatalog.sentence("gate.reason.receiveCredential", .text(account.emailAddress), in: language)
        }
    }
}

/// Why local authentication did not succeed.
public enum LocalAuthenticationFailure: Error, Sendable, Hashable {
    /// The person did not prove who they are: the password, passcode or biometric match was
    /// wrong as many times as the authenticator allows.
    case notRecognized
    /// The system refuses to try now (too many failed attempts before; biometry locked out).
    case lockedOut
    /// This device cannot authenticate its user: no passcode or biometry is set up, or the
    /// authentication service is missing or failed. `detail` names the cause, never a secret.
    case unavailable(detail: String)
}

/// How a local authentication ended.
public enum LocalAuthenticationResult: Sendable, Hashable {
    /// The person proved who they are.
    case authenticated
    /// The person dismissed the prompt (or the app cancelled it).
    case cancelled
    /// The person could not be authenticated.
    case failed(LocalAuthenticationFailure)
}

/// Authenticates the device's user before the session drivers export or import a credential
/// (Spec 8.7). Adapters: `PAMAuthenticator` (Linux, module `AccountHandoffLocalAuthentication`)
/// and `DeviceOwnerAuthenticator` (Apple platforms, `LAContext`).
///
/// The drivers call it at exactly these points and nowhere else:
/// - the sender, once both people confirmed, right before it reads and seals the password
///   (``LocalAuthenticationPurpose/sendCredential(_:)``); and, when the app asks for it,
///   before it shows the QR (``LocalAuthenticationPurpose/showTransferCode(_:)``);
/// - the receiver, when its person accepts the offered account, right before the accept
///   leaves and the password travels (``LocalAuthenticationPurpose/receiveCredential(_:)``).
///
/// A result other than ``LocalAuthenticationResult/authenticated`` ends the session before
/// anything secret is sent or kept: `cancelled` as a cancel by this side's person, `failed`
/// as `authenticationFailed`, which the other device is told.
///
/// Its ``gateDeclaration`` is what the session declares to the other device (Spec 3.4
/// `senderGate`, 3.6 `receiverGate`): ``GateDeclaration/skipped`` for an authenticator that lets
/// every request through without asking anyone, so that the other screen can say so.
public protocol LocalAuthenticator: Sendable {
    /// Whether this authenticator asks the person (``GateDeclaration/asks``) or lets every
    /// request through without asking (``GateDeclaration/skipped``). The session declares it to
    /// the other device before anything secret is sent (Spec 3.4, 3.6).
    ///
    /// - Warning: Declare ``GateDeclaration/skipped`` for any authenticator that does not ask
    ///   the person: the other person decides on what this declaration says.
    var gateDeclaration: GateDeclaration { get }

    /// Asks the person to authenticate for `purpose`; returns once they did, gave up or
    /// failed. If the calling task is cancelled, return ``LocalAuthenticationResult/cancelled``
    /// promptly.
    func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult
}
