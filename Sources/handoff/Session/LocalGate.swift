import AccountHandoff

/// The CLI's local-authentication gate (Spec 8.7). PLACEHOLDER until the PAM adapter lands.
enum LocalGate {
    static func authenticator(_ parsed: ParsedArguments, console: Console, input: StandardInput) throws(CLIError) -> any LocalAuthenticator {
        NoGate()
    }
}

struct NoGate: LocalAuthenticator {
    func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult { .authenticated }
}
