import AccountHandoff
import AccountHandoffLocalAuthentication
import Foundation

/// The CLI's local-authentication gate (Spec 8.7): on Linux, PAM re-authenticates the user
/// who runs `handoff`, asking for the login password on the terminal (service `handoff`, or
/// `--auth-service NAME`); `--no-local-auth` turns the gate off, with a warning.
struct LocalGate {
    /// The options `send` and `receive` take for the gate.
    static let valueOptions: Set<String> = ["--auth-service"]
    static let flags: Set<String> = ["--no-local-auth"]

    private enum Kind {
        case skipped
        #if canImport(Glibc)
        case pam(PAMAuthenticatorConfiguration, LoginPasswordCheck)
        #else
        case deviceOwner
        #endif
    }

    private let kind: Kind
    private let role: HandoffRole

    /// Reads the gate's options at the start of `send` or `receive`. On Linux it also finds
    /// out, asking nothing, whether the user's login password can pass at all, and warns now
    /// when it cannot, before the person spends any time on the transfer.
    static func prepare(_ parsed: ParsedArguments, console: Console, command: String) async throws(CLIError) -> LocalGate {
        let role: HandoffRole = command == "send" ? .sender : .receiver
        if parsed.has("--no-local-auth") {
            guard parsed.value("--auth-service") == nil else {
                throw .usage(sentenceCatalog.sentence("gate.usage.noAuthWithService", in: .cli), command: command)
            }
            console.error(GateWords.noGateWarning(role))
            return LocalGate(kind: .skipped, role: role)
        }
        #if canImport(Glibc)
        let service = parsed.value("--auth-service") ?? PAMAuthenticatorConfiguration.defaultServiceName
        guard PAMAuthenticatorConfiguration.isValidServiceName(service) else {
            throw .usage(sentenceCatalog.sentence("gate.usage.serviceName", in: .cli), command: command)
        }
        let configuration = PAMAuthenticatorConfiguration(serviceName: service)
        let check = await PAMAuthenticator(configuration: configuration, conversation: NoConversation()).checkLoginPassword()
        if let entry = check.unusableEntry {
            console.error(sentenceCatalog.sentence("gate.warningPrefix",
                                                   .text(GateWords.noUsablePassword(check.user, entry: entry, service: service) + " " + GateWords.whatToDoInstead(role)),
                                                   in: .cli))
        }
        return LocalGate(kind: .pam(configuration, check), role: role)
        #else
        return LocalGate(kind: .deviceOwner, role: role)
        #endif
    }

    /// The gate the command's session calls, asking its questions through `asking`.
    func authenticator(asking: Asking) -> any LocalAuthenticator {
        switch kind {
        case .skipped:
            return AnnouncingAuthenticator(base: LocalAuthenticationSkipped(), console: asking.console, asksPerson: false)
        #if canImport(Glibc)
        case .pam(let configuration, let check):
            return TerminalGate(configuration: configuration, check: check, role: role, asking: asking)
        #else
        case .deviceOwner:
            return AnnouncingAuthenticator(base: DeviceOwnerAuthenticator(), console: asking.console, asksPerson: true)
        #endif
        }
    }
}

/// Says what is about to happen right before the gate asks (in the same task, so the sentence
/// always comes before the question, never after it).
struct AnnouncingAuthenticator: LocalAuthenticator {
    let base: any LocalAuthenticator
    let console: Console
    /// Whether `base` asks the person (not with `--no-local-auth`).
    let asksPerson: Bool
    var gateDeclaration: GateDeclaration { asksPerson ? .asks : .skipped }

    func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult {
        GateWords.announcement(for: purpose, asksPerson: asksPerson).forEach { console.line($0) }
        return await base.authenticate(for: purpose)
    }
}

/// `--no-local-auth`: every gate passes. Only the person's explicit option leads here.
struct LocalAuthenticationSkipped: LocalAuthenticator {
    var gateDeclaration: GateDeclaration { .skipped }
    func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult { .authenticated }
}

#if canImport(Glibc)
/// The conversation of the check that asks nothing (``PAMAuthenticator/checkLoginPassword()``).
private struct NoConversation: PAMConversation {
    func answer(_ prompt: PAMPrompt, for purpose: LocalAuthenticationPurpose) async -> PAMAnswer? { nil }
}
#endif
