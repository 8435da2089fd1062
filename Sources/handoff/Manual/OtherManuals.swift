extension CommandManual {
    /// `handoff demo`.
    static let demo = CommandManual(
        command: "demo",
        about: [
            "Runs a real transfer of a demo account between two separate processes on this machine: 'handoff send' and 'handoff receive', talking over TCP on 127.0.0.1. You see the QR code and the transfer code, the six-digit code the receiving side shows and the sending side types, the offer, both login-password gates (a throwaway PAM setup whose password is demo-login; your real login is not touched), the receiver logging in to a local IMAP server (a throwaway Dovecot) over TLS, and at the end the imported account. The demo password is random and never shown. The transfer code reaches the receiving process on its standard input, never its command line.",
        ],
        options: [
            CommandOption("--yes", nil,
                "Answer both sides automatically: the demo types the code the receiving side shows into the sending side, accepts, and gives each gate the demo login password. Without it, each side asks you."),
            CommandOption("--relay", nil,
                "Start Debian's transit relay (twistd3 transitrelay, from the package magic-wormhole-transit-relay) on 127.0.0.1 and send the transfer through it: the code names only the relay."),
            CommandOption("--store", "DIR", "Keep the receiver's store in DIR (default: a temporary directory that is removed at the end)."),
            .ecc,
            .qrStyle,
        ])

    /// `handoff accounts`.
    static let accounts = CommandManual(
        command: "accounts",
        about: [
            "Lists the accounts in a receiver's store (default ./handoff-store): each account's local ID and settings, link ID included. Passwords are never shown. An import that was interrupted is finished or undone first; a store you cannot write to is listed as it is, with a note when such an import is waiting for a writable store.",
        ],
        options: [
            .store("list"),
            CommandOption("--credentials", "WHERE",
                "Where the store keeps passwords (keyring or files); a store remembers it, so this is only checked against its record."),
        ])

    /// `handoff inspect`.
    static let inspect = CommandManual(
        command: "inspect",
        about: [
            "Decodes the transfer code (AH:..., from the first line of standard input or of --code-file FILE, never from the command line) and prints its session fields and its expiry, or the exact reason it is invalid. The QR secret (the commitment) is not printed. A well-formed code that has not expired may still be used up, rejected or cancelled, or changed in copying: only 'handoff receive' finds out. Exits with 66 when the code has expired and 65 when it is invalid.",
        ],
        options: [.codeFile],
        positionals: 0...1, positionalName: "'-' (read the code from standard input, the default)")

    /// `handoff qr`.
    static let qr = CommandManual(
        command: "qr",
        about: [
            "Draws the transfer code (AH:..., from the first line of standard input or of --code-file FILE, never from the command line) as a QR code: on the terminal (the default when no file is given, or with --terminal), as an SVG, as a PNG. The images hold the code, so they are created readable by you only (mode 0600).",
        ],
        options: [
            .codeFile,
            CommandOption("--svg", "FILE", "Write an SVG image (a new file, or a regular file it replaces)."),
            CommandOption("--png", "FILE", "Write a PNG image (1-bit grayscale, compressed), likewise."),
            CommandOption("--terminal", nil, "Also draw it on the terminal when writing files."),
            .ecc,
            CommandOption("--scale", "N", "Pixels per module in the images, 1 to 64 (default 8)."),
            .qrStyle,
        ],
        positionals: 0...1, positionalName: "'-' (read the code from standard input, the default)")

    /// `handoff vectors`.
    static let vectors = CommandManual(
        command: "vectors",
        required: ["--out DIR"],
        about: [
            "Regenerates every test-vector file (the committed Vectors/ folder) into DIR from fixed seeds and a fixed clock. Running it twice gives byte-identical files; the test suite fails when the committed vectors differ from a regeneration.",
        ],
        options: [CommandOption("--out", "DIR", "The folder to write the vector files into (required).")])

    /// `handoff help`.
    static let help = CommandManual(
        command: "help",
        required: ["[<command>]"],
        about: ["Shows the overview, or the help of one command."],
        options: [],
        positionals: 0...1, positionalName: "a command")
}
