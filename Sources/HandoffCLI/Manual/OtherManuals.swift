extension CommandManual {
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

    /// `handoff help`.
    static let help = CommandManual(
        command: "help",
        required: ["[<command>]"],
        about: ["Shows the overview, or the help of one command."],
        options: [],
        positionals: 0...1, positionalName: "a command")
}
