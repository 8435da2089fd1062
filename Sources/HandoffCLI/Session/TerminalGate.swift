#if canImport(Glibc)
import AccountHandoff
import AccountHandoffLocalAuthentication
import Foundation

/// The PAM gate on the terminal: says why right before it asks, asks through
/// ``TerminalPAMConversation``, and afterwards says what the session's ending cannot: why this
/// device could not authenticate its user at all (a missing service, an unknown user), what
/// to do when no password can pass, and that a service which asked nothing proved nothing.
struct TerminalGate: LocalAuthenticator {
    let configuration: PAMAuthenticatorConfiguration
    /// What the command found out before the transfer began.
    let check: LoginPasswordCheck
    let role: HandoffRole
    let asking: Asking
    var console: Console { asking.console }
    var gateDeclaration: GateDeclaration { .asks }

    func authenticate(for purpose: LocalAuthenticationPurpose) async -> LocalAuthenticationResult {
        GateWords.announcement(for: purpose, asksPerson: true).forEach { console.line($0) }
        if check.unusableEntry != nil { console.line(GateWords.noUsablePasswordReminder(check.user)) }
        let conversation = TerminalPAMConversation(asking: asking, user: check.user)
        let result = await PAMAuthenticator(configuration: configuration, conversation: conversation).authenticate(for: purpose)
        switch result {
        case .authenticated:
            // pam_rootok (su, runuser as root) or pam_permit: nobody was asked anything.
            if !conversation.promptsShown.isSet { console.error(GateWords.askedNothingWarning(configuration.serviceName, user: check.user, role: role)) }
        case .failed(.unavailable(let detail)):
            console.error(LocalAuthenticationFailure.unavailable(detail: detail).sentence(in: .cli))
        case .failed(.notRecognized):
            let cause = check.unusableEntry.map { GateWords.noUsablePassword(check.user, entry: $0, service: configuration.serviceName) }
                ?? GateWords.perhapsNoPassword(check.user)
            console.error(cause + " " + GateWords.whatToDoInstead(role))
        case .failed(.lockedOut), .cancelled:
            break
        }
        return result
    }
}

/// PAM's questions on the terminal: the login password is read with echo off straight into
/// guarded memory, never printed and never echoed from a pipe.
package struct TerminalPAMConversation: PAMConversation {
    /// Ends the gate's password question, in the CLI's language; the demo recognises it.
    package static let marker = sentenceCatalog.sentence("gate.marker", in: .cli)

    let asking: Asking
    /// How the user PAM authenticates is named (``LoginPasswordCheck/user``).
    let user: String
    /// Set once PAM asked or said anything.
    let promptsShown = OnceFlag()

    package func answer(_ prompt: PAMPrompt, for purpose: LocalAuthenticationPurpose) async -> PAMAnswer? {
        promptsShown.set()
        switch prompt {
        case .secret(let text):
            return await asking.askSecret(GateWords.question(pamText: Self.trimmed(text), user: user), about: .loginPassword,
                                          marker: Self.marker).map(PAMAnswer.secret)
        case .text(let text):
            return await asking.askLine(Self.trimmed(text), about: .loginPassword, marker: "").map(PAMAnswer.text)
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
}
#endif
