import AccountHandoff
#if canImport(Glibc)
import AccountHandoffLocalAuthentication
#endif

/// What the local-authentication gate says on the terminal (Spec 8.7), each sentence once.
enum GateWords {
    /// `--no-local-auth`'s warning at the start.
    static func noGateWarning(_ role: HandoffRole) -> String {
        switch role {
        case .sender: "Warning: --no-local-auth: nobody is asked to prove who they are before the password leaves this computer; anyone at this terminal could do it."
        case .receiver: "Warning: --no-local-auth: nobody is asked to prove who they are before the password is accepted and stored; anyone at this terminal could do it."
        }
    }

    /// Said right before the gate asks.
    static func announcement(for purpose: LocalAuthenticationPurpose, asksPerson: Bool) -> [String] {
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

    /// The gate's password question: PAM's usual "Password" becomes which password it is.
    static func question(pamText: String, user: String) -> String {
        pamText.lowercased() == "password"
            ? "Login password of \(user) on this computer (not shown; it is checked here and never sent)"
            : "\(pamText) (PAM asks this for \(user) on this computer; not shown)"
    }

    /// After a gate that passed without asking or saying anything.
    static func askedNothingWarning(_ service: String, user: String, role: HandoffRole) -> String {
        switch role {
        case .sender:
            "Warning: the PAM service \(service) let \(user) through without asking anything (su and runuser do that for root, through pam_rootok), so nobody proved who they are before the password leaves this computer; anyone at this terminal could do it."
        case .receiver:
            "Warning: the PAM service \(service) let \(user) through without asking anything (su and runuser do that for root, through pam_rootok), so nobody proved who they are before the password is accepted and stored; anyone at this terminal could do it."
        }
    }

    #if canImport(Glibc)
    /// Why no password can pass the gate, when the command found that out before it began.
    static func noUsablePassword(_ user: String, entry: UnusablePasswordEntry, service: String) -> String {
        switch entry {
        case .noPassword:
            "\(user) has no login password on this computer (its entry in the shadow password file, /etc/shadow, is \"*\"), so no password can pass the login-password check (PAM service \(service))."
        case .locked:
            "\(user)'s login password is locked on this computer (its entry in the shadow password file, /etc/shadow, starts with \"!\"), so no password can pass the login-password check (PAM service \(service))."
        case .empty:
            "\(user) has an empty login password on this computer, which the login-password check (PAM service \(service)) refuses, so no password can pass it."
        }
    }

    /// Right before the gate asks, when no password can pass it.
    static func noUsablePasswordReminder(_ user: String) -> String {
        "As the warning at the start said, no login password of \(user) can pass this check; press Ctrl-C to stop, then start again as it says."
    }
    #endif

    /// After the last wrong try, when the command could not find out whether a password can
    /// pass (only root may read /etc/shadow).
    static func perhapsNoPassword(_ user: String) -> String {
        "If the account \(user) has no login password (root on many servers and containers has none, nor do system accounts such as nobody), no answer can pass this check."
    }

    /// What to do when the gate cannot pass.
    static func whatToDoInstead(_ role: HandoffRole) -> String {
        switch role {
        case .sender:
            "To send anyway, set a login password with 'passwd', name a PAM service that can check you with --auth-service SERVICE, or start both sides again with --no-local-auth (then nobody is asked to prove who they are)."
        case .receiver:
            "To receive anyway, set a login password with 'passwd', name a PAM service that can check you with --auth-service SERVICE, or start both sides again with --no-local-auth (then nobody is asked to prove who they are)."
        }
    }
}
