extension CommandManual {
    /// `handoff send`.
    static let send = CommandManual(
        command: "send",
        required: ["(--account FILE (--password-stdin | --password-file FILE)", "| --from-thunderbird [PROFILE] [--account EMAIL])"],
        about: [
            "Offers one account to a receiving device. Shows a QR code and the transfer code, waits for a receiving device to connect, then asks you to type the six-digit code that the receiving device shows: only that code, typed here, confirms the receiving device (this device never shows a code of its own, and a yes is not an answer). The account's settings then go to the receiving device, whose person accepts them; you confirm that it is you (your login password), and only then does the password travel, encrypted.",
            "The typed way: with --address ADDRESS --lan, and the Avahi daemon running (Debian's avahi-daemon), this device also shows a short code of 11 digits beside the QR (such as 427 8150 9366) and announces its first three digits on the local network, so a receiving device that cannot scan types that code instead ('handoff receive' accepts either). Whichever way pairs first wins. Each code allows one guess: a device that types a wrong code retires it, this device says so and shows a new one, and after three wrong codes typing a code is turned off for the transfer (the QR still works). With --relay, the typed code works through the relay too (no Avahi needed): this device waits there under the code's first three digits, and the receiving device names the same relay with 'handoff receive --relay HOST:PORT'. When the typed way cannot be offered, this device says why.",
            "The account file is JSON with these fields (no password):",
            """
              {"accountLinkID": "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162", "displayName": "Ada Lovelace",
               "emailAddress": "ada@example.org", "username": "ada", "imapHost": "imap.example.org",
               "imapPort": 993, "imapSecurity": "tls"}
            """,
            "imapSecurity is \"tls\" or \"startTLS\"; imapPort is a number. accountLinkID is the account's identity on every device and is kept unchanged by the transfer. No store writes such a file for you: to send an account that Thunderbird holds, use --from-thunderbird instead.",
            "With --from-thunderbird, the account and its saved password come from a Thunderbird profile: the one named PROFILE in Thunderbird's profile list (~/.thunderbird/profiles.ini), the profile folder PROFILE when it contains a /, or the default profile. --account EMAIL chooses among several IMAP accounts; without it, a profile with several is listed. The password is decrypted with the profile's key database (on a terminal you are asked for its primary password if it has one) and never shown. The profile is not changed, and Thunderbird may keep running.",
        ],
        options: [
            CommandOption("--account", "FILE",
                "The account's settings file (required without --from-thunderbird); with --from-thunderbird, the e-mail address of the account to send."),
            .optionalValue("--from-thunderbird", "PROFILE",
                "Send an IMAP account and its saved password from a Thunderbird profile: its name, its folder, or the default profile."),
            CommandOption("--password-stdin", nil,
                "Read the password from the first line of standard input (not echoed on a terminal). The answers to the questions follow on the next lines, each taken by the next question."),
            CommandOption("--password-file", "FILE", "Read the password from the first line of FILE (which should have mode 0600)."),
            CommandOption("--address", "IPV4",
                "Listen on this address of this machine and put it in the code (default 127.0.0.1: a receiver on this machine only). An address outside 127.0.0.0/8 needs --lan; 0.0.0.0 is refused."),
            CommandOption("--lan", nil, "Allow a network address with --address: other machines on that network can then connect, and, with Avahi running, type the short code instead of scanning."),
            CommandOption("--port", "N", "Listen on this port (default: any free port)."),
            CommandOption("--relay", "HOST:PORT",
                "Also name a magic-wormhole transit relay in the code and wait there too, for a receiving device that cannot reach this machine (another network, client isolation). The relay sees only encrypted bytes. HOST is a name or IPv4 address of at most 42 characters (33 beside a --lan address)."),
            CommandOption("--relay-only", nil, "Name only the relay in the code, not this machine's address (needs --relay)."),
            CommandOption("--lifetime", "SECONDS", "How long each code is valid, 30 to 600 (default 180)."),
            CommandOption("--codes", "N",
                "How many codes to show, 1 to 100 (default 5): a code that expires before any receiving device used it is replaced by a new one, and the old one stops working."),
            .ecc,
            CommandOption("--svg", "FILE", "Also write the QR code to FILE as SVG (mode 0600: it holds the code)."),
            CommandOption("--png", "FILE", "Also write the QR code to FILE as PNG (mode 0600)."),
            .qrStyle,
            CommandOption("--no-qr", nil, "Print only the transfer code, no QR drawing."),
            .authService,
            .noLocalAuth("the password leaves this computer"),
        ],
        notes: [
            "To the code question, type the six digits the receiving device shows (spaces are fine); no if it shows none (a device you do not know then has your transfer code, and the transfer stops as declined); or cancel to stop for any other reason. A wrong code can be typed again: three wrong codes stop the transfer, and anything that is not six digits does not count. Until the transfer ends, the transfer code is a secret: never put it on a command line. Ctrl-C cancels the transfer and tells the other device; after the password left, it only stops waiting for the receipt (exit code 71).",
            noPasswordNote,
            "The QR code and the transfer code stay on screen together: in a window too small for the usual drawing, the instructions come first and the QR is drawn with a one-module margin, the transfer code last (an 80 × 24 terminal fits it); in a window too small even for that, no QR is drawn, and a sentence says how large the window must be.",
        ],
        refused: ["--yes": "'handoff send' never confirms by itself: only the code the receiving device shows confirms it, typed by the person who reads it there. (The demo of the source tree, Scripts/demo.sh, answers for you, because both ends are its own processes.)"])
}
