import AccountHandoff
import AccountHandoffLocalAuthentication

// The examples in the doc comments of AccountHandoffLocalAuthentication, each compiled where
// its authenticator exists (see SessionDriverExamples.swift).

#if canImport(CPAM) && canImport(Glibc)
/// The app's password dialog of the PAMAuthenticator example.
struct PasswordDialog: PAMConversation {
    func answer(_ prompt: PAMPrompt, for purpose: LocalAuthenticationPurpose) async -> PAMAnswer? { nil }
}

// example: Sources/AccountHandoffLocalAuthentication/PAM/PAMAuthenticator.swift#1
func pamAuthenticatorExample(account: AccountMetadata) async -> LocalAuthenticationResult {
    let gate = PAMAuthenticator(conversation: PasswordDialog())
    let result = await gate.authenticate(for: .sendCredential(account, receiverGate: .asks))
    return result
}
#endif

#if canImport(LocalAuthentication)
// example: Sources/AccountHandoffLocalAuthentication/Apple/DeviceOwnerAuthenticator.swift#1
func deviceOwnerAuthenticatorExample(account: AccountMetadata) async -> LocalAuthenticationResult {
    let gate = DeviceOwnerAuthenticator()
    let result = await gate.authenticate(for: .receiveCredential(account))
    return result
}
#endif

#if canImport(LocalAuthentication) || (canImport(CPAM) && canImport(Glibc))
/// The app's password sheet of the DeviceOwnerGate example.
@MainActor enum PasswordSheet {
    static func ask(_ question: String, why: String) async -> SecretBytes? { nil }
}
let passwordSheet = PasswordSheet.self

// example: Sources/AccountHandoffLocalAuthentication/DeviceOwnerGate.swift#1
func deviceOwnerGateExample() -> DeviceOwnerGate {
    let gate = DeviceOwnerGate { question, purpose in await passwordSheet.ask(question, why: purpose.reason) }
    return gate
}
#endif
