extension CommandManual {
    /// `handoff accounts`.
    static let accounts = CommandManual(
        command: "accounts",
        about: [
            sentenceCatalog.sentence("manual.accounts.about", in: .cli),
        ],
        options: [
            .store(sentenceCatalog.sentence("manual.option.store.list", in: .cli)),
            CommandOption("--credentials", "WHERE",
                sentenceCatalog.sentence("manual.accounts.credentials", in: .cli)),
        ])

    /// `handoff inspect`.
    static let inspect = CommandManual(
        command: "inspect",
        about: [
            sentenceCatalog.sentence("manual.inspect.about", in: .cli),
        ],
        options: [.codeFile],
        positionals: 0...1, positionalName: sentenceCatalog.sentence("manual.positional.stdin", in: .cli))

    /// `handoff qr`.
    static let qr = CommandManual(
        command: "qr",
        about: [
            sentenceCatalog.sentence("manual.qr.about", in: .cli),
        ],
        options: [
            .codeFile,
            CommandOption("--svg", "FILE", sentenceCatalog.sentence("manual.qr.svg", in: .cli)),
            CommandOption("--png", "FILE", sentenceCatalog.sentence("manual.qr.png", in: .cli)),
            CommandOption("--terminal", nil, sentenceCatalog.sentence("manual.qr.terminal", in: .cli)),
            .ecc,
            CommandOption("--scale", "N", sentenceCatalog.sentence("manual.qr.scale", in: .cli)),
            .qrStyle,
        ],
        positionals: 0...1, positionalName: sentenceCatalog.sentence("manual.positional.stdin", in: .cli))

    /// `handoff help`.
    static let help = CommandManual(
        command: "help",
        required: ["[<command>]"],
        about: [sentenceCatalog.sentence("manual.help.about", in: .cli)],
        options: [],
        positionals: 0...1, positionalName: sentenceCatalog.sentence("manual.positional.command", in: .cli))
}
