#if canImport(LocalAuthentication) || (canImport(CPAM) && canImport(Glibc))
import AccountHandoff

/// The device owner's local-authentication gate (Spec 8.7) under one name on every platform,
/// so an app writes no `#if`: Touch ID, Face ID, Optic ID or the passcode through
/// ``DeviceOwnerAuthenticator`` on Apple platforms, the person's login password through
/// ``PAMAuthenticator`` (service `handoff`, 3 tries) on Linux.
///
/// ```swift
/// let gate = DeviceOwnerGate { question, purpose in await passwordSheet.ask(question, why: purpose.reason) }
/// ```
public struct DeviceOwnerGate: LocalAuthenticator {
    #if canImport(LocalAuthentication)
    private let platform = DeviceOwnerAuthenticator()
    #else
    private let platform: PAMAuthenticator
    #endif

    /// The gate of this platform.
    ///
    /// - Parameter askPassword: asks the person for their login password, showing `question`
    ///   (PAM's, for example "Password: ") and why (`purpose.reason`); returns the answer in
    ///   guarded memory, or `nil` when the person cancels. Only Linux calls it: Apple platforms
    ///   show the system's own prompt.
    public init(askPassword: @escaping @Sendable (_ question: String, _ purpose: LocalAuthenticationPurpose) async -> SecretBytes?) {
        #if !canImport(LocalAuthentication)
        platform = PAMAuthenticator(conversation: PasswordConversation(askPassword: askPassword))
        #endif
    }

    /// The platform's gate asks the person: ``GateDeclaration/asks``.
    public var gateDeclaration: GateDeclaration { .asks }

    /// Asks the person to authenticate for `purpose` with the platform's gate.
    public func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult {
        await platform.authenticate(for: purpose)
    }
}

#if !canImport(LocalAuthentication)
/// PAM's questions as password questions: a hidden question is asked, a visible one (PAM asks
/// for a user name only when it has none) is cancelled, messages need no answer.
private struct PasswordConversation: PAMConversation {
    let askPassword: @Sendable (String, LocalAuthenticationPurpose) async -> SecretBytes?

    func answer(_ prompt: PAMPrompt, for purpose: LocalAuthenticationPurpose) async -> PAMAnswer? {
        switch prompt {
        case .secret(let question): await askPassword(question, purpose).map { .secret($0) }
        case .text: nil
        case .error, .info: .shown
        }
    }
}
#endif
#endif
