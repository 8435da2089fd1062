extension CommandManual {
    /// `handoff send`.
    static let send = CommandManual(
        command: "send",
        required: ["(--account FILE (--password-stdin | --password-file FILE)", "| --from-thunderbird [PROFILE] [--account EMAIL])"],
        about: [
            sentenceCatalog.sentence("manual.send.about.1", in: .cli),
            sentenceCatalog.sentence("manual.send.about.2", in: .cli),
            sentenceCatalog.sentence("manual.send.about.3", in: .cli),
            """
              {"accountLinkID": "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162", "displayName": "Ada Lovelace",
               "emailAddress": "ada@example.org", "username": "ada", "imapHost": "imap.example.org",
               "imapPort": 993, "imapSecurity": "tls"}
            """,
            sentenceCatalog.sentence("manual.send.about.4", in: .cli),
            sentenceCatalog.sentence("manual.send.about.5", in: .cli),
        ],
        options: [
            CommandOption("--account", "FILE",
                sentenceCatalog.sentence("manual.send.account", in: .cli)),
            .optionalValue("--from-thunderbird", "PROFILE",
                sentenceCatalog.sentence("manual.send.fromThunderbird", in: .cli)),
            CommandOption("--password-stdin", nil,
                sentenceCatalog.sentence("manual.send.passwordStdin", in: .cli)),
            CommandOption("--password-file", "FILE", sentenceCatalog.sentence("manual.send.passwordFile", in: .cli)),
            CommandOption("--address", "IPV4",
                sentenceCatalog.sentence("manual.send.address", in: .cli)),
            CommandOption("--lan", nil, sentenceCatalog.sentence("manual.send.lan", in: .cli)),
            CommandOption("--port", "N", sentenceCatalog.sentence("manual.send.port", in: .cli)),
            CommandOption("--relay", "HOST:PORT",
                sentenceCatalog.sentence("manual.send.relay", in: .cli)),
            CommandOption("--relay-only", nil, sentenceCatalog.sentence("manual.send.relayOnly", in: .cli)),
            CommandOption("--lifetime", "SECONDS", sentenceCatalog.sentence("manual.send.lifetime", in: .cli)),
            CommandOption("--codes", "N",
                sentenceCatalog.sentence("manual.send.codes", in: .cli)),
            .ecc,
            CommandOption("--svg", "FILE", sentenceCatalog.sentence("manual.send.svg", in: .cli)),
            CommandOption("--png", "FILE", sentenceCatalog.sentence("manual.send.png", in: .cli)),
            .qrStyle,
            CommandOption("--no-qr", nil, sentenceCatalog.sentence("manual.send.noQR", in: .cli)),
            .authService,
            .noLocalAuth(sentenceCatalog.sentence("manual.option.noLocalAuth.send", in: .cli)),
        ],
        notes: [
            sentenceCatalog.sentence("manual.send.note.1", in: .cli),
            noPasswordNote,
            sentenceCatalog.sentence("manual.send.note.3", in: .cli),
        ],
        refused: ["--yes": sentenceCatalog.sentence("manual.send.refused.yes", in: .cli)])
}
