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
        "The PAM service that checks your login password before the password travels (default handoff; without /etc/pam.d/handoff, PAM uses its 'other' service).")
    static func noLocalAuth(_ what: String) -> CommandOption {
        CommandOption("--no-local-auth", nil,
            "Do not ask for your login password before \(what) (a warning says so): anyone at this terminal could then do it.")
    }
}
