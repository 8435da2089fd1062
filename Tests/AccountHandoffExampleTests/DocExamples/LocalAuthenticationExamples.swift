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
    let result = await gate.authenticate(for: .sendCredential(account))
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
