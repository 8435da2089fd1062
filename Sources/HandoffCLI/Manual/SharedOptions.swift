/// Options several commands share, worded once.
extension CommandOption {
    package static let ecc = CommandOption("--ecc", "LEVEL", "QR error correction: L, M (default), Q or H.")
    package static let qrStyle = CommandOption("--qr-style", "S",
        "How the terminal QR is drawn: ansi (default; black on white on any terminal), light or dark (no colour codes, for a light or a dark terminal theme).")
    static let codeFile = CommandOption("--code-file", "FILE", "Read the transfer code from the first line of FILE instead of standard input.")
    static func store(_ verb: String) -> CommandOption {
        CommandOption("--store", "DIR", "The receiver's store to \(verb) (default ./handoff-store).")
    }
    static let authService = CommandOption("--auth-service", "NAME",
        "The PAM service that checks your login password before the password travels (default handoff; without /etc/pam.d/handoff, PAM uses its 'other' service). A service that lets you through without asking anything (su or runuser run as root, through pam_rootok) proves nothing about who is at this terminal: it gets the same warning as --no-local-auth rather than a refusal, because, like that option, it is your own explicit choice, and refusing it would only send you to --no-local-auth.")
    static func noLocalAuth(_ what: String) -> CommandOption {
        CommandOption("--no-local-auth", nil,
            "Do not ask for your login password before \(what) (a warning says so): anyone at this terminal could then do it.")
    }
}

extension CommandManual {
    /// What `send` and `receive` say about an account the gate cannot pass.
    static let noPasswordNote = "An account without a login password (root on many servers and containers, system accounts such as nobody) cannot pass the login-password check: when it can tell, handoff says so at the start. Set one with passwd, name a PAM service that can check you with --auth-service, or start both sides with --no-local-auth."
}
