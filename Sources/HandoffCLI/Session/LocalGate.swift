import AccountHandoff
import AccountHandoffLocalAuthentication
import Foundation

/// The CLI's local-authentication gate (Spec 8.7): on Linux, PAM re-authenticates the user
/// who runs `handoff`, asking for the login password on the terminal (service `handoff`, or
/// `--auth-service NAME`); `--no-local-auth` turns the gate off, with a warning.
enum LocalGate {
    /// The options `send` and `receive` take for the gate.
    static let valueOptions: Set<String> = ["--auth-service"]
    static let flags: Set<String> = ["--no-local-auth"]

    /// The gate the command's session calls.
    static func authenticator(_ parsed: ParsedArguments, asking: Asking, command: String) throws(CLIError) -> any LocalAuthenticator {
        if parsed.has("--no-local-auth") {
            guard parsed.value("--auth-service") == nil else {
                throw .usage("--no-local-auth cannot be combined with --auth-service.", command: command)
            }
            asking.console.error("Warning: --no-local-auth: nobody is asked to prove who they are before the password \(command == "send" ? "leaves this computer" : "is accepted and stored"); anyone at this terminal could do it.")
            return AnnouncingAuthenticator(base: LocalAuthenticationSkipped(), console: asking.console, asksPerson: false)
        }
        #if canImport(Glibc)
        let service = parsed.value("--auth-service") ?? PAMAuthenticatorConfiguration.defaultServiceName
        guard PAMAuthenticatorConfiguration.isValidServiceName(service) else {
            throw .usage("The option --auth-service takes a PAM service name (letters, digits, '.', '_', '-').", command: command)
        }
        let pam = PAMAuthenticator(configuration: PAMAuthenticatorConfiguration(serviceName: service),
                                   conversation: TerminalPAMConversation(asking: asking))
        return AnnouncingAuthenticator(base: CauseReportingAuthenticator(base: pam, console: asking.console), console: asking.console, asksPerson: true)
        #else
        return AnnouncingAuthenticator(base: DeviceOwnerAuthenticator(), console: asking.console, asksPerson: true)
        #endif
    }
}

/// Says what is about to happen right before the gate asks (in the same task, so the sentence
/// always comes before the question, never after it).
struct AnnouncingAuthenticator: LocalAuthenticator {
    let base: any LocalAuthenticator
    let console: Console
    /// Whether `base` asks the person (not with `--no-local-auth`).
    let asksPerson: Bool

    func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult {
        Self.lines(for: purpose, asksPerson: asksPerson).forEach { console.line($0) }
        return await base.authenticate(for: purpose)
    }

    static func lines(for purpose: LocalAuthenticationPurpose, asksPerson: Bool) -> [String] {
        switch purpose {
        case .showTransferCode:
            asksPerson ? ["Confirm that it is you before the transfer code is shown."] : []
        case .sendCredential(let account):
            ["The receiving device accepted the account."]
                + (asksPerson ? ["To send the password of \(account.emailAddress), confirm that it is you."] : [])
        case .receiveCredential:
            asksPerson ? ["To receive the password and store it on this device, confirm that it is you."] : []
        }
    }
}

/// Says why this device could not authenticate its user at all (a missing PAM service, an
/// unknown user): the session's ending only says that authentication failed.
struct CauseReportingAuthenticator: LocalAuthenticator {
    let base: any LocalAuthenticator
    let console: Console

    func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult {
        let result = await base.authenticate(for: purpose)
        if case .failed(let failure) = result, case .unavailable = failure { console.error(failure.description) }
        return result
    }
}

/// `--no-local-auth`: every gate passes. Only the person's explicit option leads here.
struct LocalAuthenticationSkipped: LocalAuthenticator {
    func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult { .authenticated }
}

#if canImport(Glibc)
/// PAM's questions on the terminal: the login password is read with echo off straight into
/// guarded memory, never printed and never echoed from a pipe.
struct TerminalPAMConversation: PAMConversation {
    /// Ends the gate's password question; the demo recognises it.
    static let marker = "[login password] "

    let asking: Asking

    func answer(_ prompt: PAMPrompt, for purpose: LocalAuthenticationPurpose) async -> PAMAnswer? {
        switch prompt {
        case .secret(let text):
            let question = "\(Self.trimmed(text)) (the login password of \(Self.userName), not shown; it is checked on this computer only)"
            return await asking.askSecret(question, marker: Self.marker).map(PAMAnswer.secret)
        case .text(let text):
            return await asking.askLine(Self.trimmed(text), marker: "").map(PAMAnswer.text)
        case .error(let text):
            asking.console.error(text)
            return .shown
        case .info(let text):
            asking.console.line(text)
            return .shown
        }
    }

    private static func trimmed(_ text: String) -> String {
        let stripped = text.trimmingCharacters(in: .whitespaces)
        return stripped.hasSuffix(":") ? String(stripped.dropLast()) : stripped
    }

    private static var userName: String {
        ProcessInfo.processInfo.environment["USER"] ?? ProcessInfo.processInfo.userName
    }
}
#endif
