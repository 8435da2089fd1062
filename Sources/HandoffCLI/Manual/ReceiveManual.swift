extension CommandManual {
    /// `handoff receive`.
    static let receive = CommandManual(
        command: "receive",
        about: [
            "Reads the transfer code (AH:...) from the first line of standard input (paste it when asked, or pipe it in) or from --code-file FILE, connects to the sending device it names, and shows a six-digit code for the person at the sending device to type there. Once they typed it, this device shows the offered account and asks you to import it; you confirm that it is you (your login password), the password arrives, encrypted, and the account is checked with its mail server and stored. The code is never taken from the command line: until the transfer ends it is a secret, and other users of this computer can read command lines. The store is checked before the code is asked for.",
            "Instead of the transfer code, type the short code of 11 digits that the sending device shows beside its QR (such as 427 8150 9366; spaces and hyphens do not matter). Its last digit catches a typo before anything is sent, so a typo costs nothing: type the code again. This device then looks for the sending device on the local network for 2 seconds (through the Avahi daemon), connects only when exactly one device shows the code's first three digits, and proves that it knows the code without revealing it; no six-digit code is shown then. A code allows one try: a wrong one ends the transfer here, and the sending device shows a new one.",
            "The store is a directory (default ./handoff-store, created with mode 0700; an existing one must be yours and closed to other users): accounts.sqlite holds the settings (no password column). The passwords go to your desktop's keyring (the Secret Service: GNOME Keyring, KWallet, KeePassXC), or, with --credentials files, to credentials/ in the store, one file per account (mode 0600). A store keeps the place it was created with. An import is a transaction: the password is staged under a fresh name, the account is checked by logging in to its mail server over TLS, then the settings and the password become the account's together, or nothing changes. An interrupted import is finished or undone the next time the store is opened.",
            "An account that is already in the store (the same link ID, or the same address on the same server) is never replaced silently: you choose before the password is sent, and the old account stays usable until the new one is committed. A code works once on this device: the store remembers the codes it used.",
            "With --into-thunderbird, the account goes into a Thunderbird profile instead of a store: the one named PROFILE in Thunderbird's profile list (~/.thunderbird/profiles.ini), the profile folder PROFILE when it contains a /, or the default profile. Thunderbird must not be running on it: the profile is checked before the code is asked for and stays locked against Thunderbird until the import ends. The import is a transaction with a journal in the profile: the settings go to prefs.js, the password to logins.json encrypted with the profile's key database, the account's link ID to a preference of its own; a failure leaves the profile exactly as it was, and an interrupted import is undone the next time. An account like one the profile holds is never added twice: you choose as for a store. Thunderbird shows the account the next time it starts; its outgoing (SMTP) server is not part of a transfer. The codes used are remembered in ~/.local/state/handoff.",
        ],
        options: [
            .store("import into"),
            .optionalValue("--into-thunderbird", "PROFILE",
                "Import into a Thunderbird profile instead of a store: its name, its folder, or the default profile."),
            CommandOption("--credentials", "WHERE",
                "Where a new store keeps passwords: keyring (the default: the desktop's Secret Service keyring) or files (0600 files in the store directory)."),
            .codeFile,
            .scan,
            .camera,
            CommandOption("--on-conflict", "CHOICE",
                "What to do with a stored account like the offered one, instead of asking: replace, keep (both; not for the same link ID) or cancel."),
            CommandOption("--ca-file", "FILE", "Trust the certificate authorities in FILE (PEM) for the mail server's certificate instead of the system's."),
            CommandOption("--allow-plaintext", nil,
                "Check a STARTTLS account by logging in without TLS when its server offers no STARTTLS (never by default: the password would cross the network readable); a TLS account, an untrusted certificate and a failed TLS handshake are still refused."),
            CommandOption("--no-validation", nil,
                "Store the account without logging in to its mail server (for offline tests); the ending says that nothing was checked."),
            CommandOption("--relay", "HOST:PORT",
                "For a typed code: when no device on the local network shows it, meet the sending device at this magic-wormhole transit relay, the one it names with its own --relay (a transfer code names its relay itself)."),
            .authService,
            .noLocalAuth("the password is accepted and stored"),
        ],
        notes: [
            "To the import question, answer yes, no or cancel. Ctrl-C cancels the transfer and tells the other device; while the account is being checked it cancels the import, and nothing is kept.",
            scanNote,
            noPasswordNote,
            "A code may name the sending device's address, a transit relay, or both. The receiver connects directly first and, when that fails or gets no answer within 2 seconds, also through the relay; it says where it connects. The relay only copies encrypted bytes.",
        ],
        refused: [
            "--yes": "'handoff receive' never accepts an account by itself: the person at this terminal decides. (The demo of the source tree, Scripts/demo.sh, answers for you.)",
            "--replace": "--replace is now '--on-conflict replace' (or keep, or cancel); without it you are asked.",
        ],
        positionals: 0...1, positionalName: "'-' (read the code from standard input, the default)")
}
