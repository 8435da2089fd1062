import AccountHandoff
#if canImport(Glibc)
import AccountHandoffLocalAuthentication
#endif

/// What the local-authentication gate says on the terminal (Spec 8.7), each sentence once.
enum GateWords {
    /// `--no-local-auth`'s warning at the start.
    static func noGateWarning(_ role: HandoffRole) -> String {
        switch role {
        case .sender: sentenceCatalog.sentence("gate.noGate.sender", in: .cli)
        case .receiver: sentenceCatalog.sentence("gate.noGate.receiver", in: .cli)
        }
    }

    /// Said right before the gate asks.
    static func announcement(for purpose: LocalAuthenticationPurpose, asksPerson: Bool) -> [String] {
        switch purpose {
        case .showTransferCode:
            asksPerson ? [sentenceCatalog.sentence("gate.announce.showCode", in: .cli)] : []
        case .sendCredential(let account, let receiverGate):
            // The receiving device's declaration comes before this gate asks (Spec 3.6).
            [sentenceCatalog.sentence("gate.announce.accepted", in: .cli)]
                + [receiverGate.sentence(shownBy: .sender, in: .cli)].compactMap { $0 }
                + (asksPerson ? [sentenceCatalog.sentence("gate.announce.send", .text(account.emailAddress), in: .cli)] : [])
        case .receiveCredential:
            asksPerson ? [sentenceCatalog.sentence("gate.announce.receive", in: .cli)] : []
        }
    }

    /// The gate's password question: PAM's usual "Password" becomes which password it is.
    static func question(pamText: String, user: String) -> String {
        pamText.lowercased() == "password"
            ? sentenceCatalog.sentence("gate.question.loginPassword", .text(user), in: .cli)
            : sentenceCatalog.sentence("gate.question.pam", .text(pamText), .text(user), in: .cli)
    }

    /// After a gate that passed without asking or saying anything.
    static func askedNothingWarning(_ service: String, user: String, role: HandoffRole) -> String {
        switch role {
        case .sender:
            sentenceCatalog.sentence("gate.askedNothing.sender", .text(service), .text(user), in: .cli)
        case .receiver:
            sentenceCatalog.sentence("gate.askedNothing.receiver", .text(service), .text(user), in: .cli)
        }
    }

    #if canImport(Glibc)
    /// Why no password can pass the gate, when the command found that out before it began.
    static func noUsablePassword(_ user: String, entry: UnusablePasswordEntry, service: String) -> String {
        switch entry {
        case .noPassword:
            sentenceCatalog.sentence("gate.unusable.noPassword", .text(user), .text(service), in: .cli)
        case .locked:
            sentenceCatalog.sentence("gate.unusable.locked", .text(user), .text(service), in: .cli)
        case .empty:
            sentenceCatalog.sentence("gate.unusable.empty", .text(user), .text(service), in: .cli)
        }
    }

    /// Right before the gate asks, when no password can pass it.
    static func noUsablePasswordReminder(_ user: String) -> String {
        sentenceCatalog.sentence("gate.unusable.reminder", .text(user), in: .cli)
    }
    #endif

    /// After the last wrong try, when the command could not find out whether a password can
    /// pass (only root may read /etc/shadow).
    static func perhapsNoPassword(_ user: String) -> String {
        sentenceCatalog.sentence("gate.perhapsNoPassword", .text(user), in: .cli)
    }

    /// What to do when the gate cannot pass.
    static func whatToDoInstead(_ role: HandoffRole) -> String {
        switch role {
        case .sender:
            sentenceCatalog.sentence("gate.instead.sender", in: .cli)
        case .receiver:
            sentenceCatalog.sentence("gate.instead.receiver", in: .cli)
        }
    }
}
