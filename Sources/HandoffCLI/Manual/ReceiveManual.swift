extension CommandManual {
    /// `handoff receive`.
    static let receive = CommandManual(
        command: "receive",
        about: [
            sentenceCatalog.sentence("manual.receive.about.1", in: .cli),
            sentenceCatalog.sentence("manual.receive.about.2", in: .cli),
            sentenceCatalog.sentence("manual.receive.about.3", in: .cli),
            sentenceCatalog.sentence("manual.receive.about.4", in: .cli),
            sentenceCatalog.sentence("manual.receive.about.5", in: .cli),
        ],
        options: [
            .store(sentenceCatalog.sentence("manual.option.store.import", in: .cli)),
            .optionalValue("--into-thunderbird", "PROFILE",
                sentenceCatalog.sentence("manual.receive.intoThunderbird", in: .cli)),
            CommandOption("--credentials", "WHERE",
                sentenceCatalog.sentence("manual.receive.credentials", in: .cli)),
            .codeFile,
            .scan,
            .camera,
            CommandOption("--on-conflict", "CHOICE",
                sentenceCatalog.sentence("manual.receive.onConflict", in: .cli)),
            CommandOption("--ca-file", "FILE", sentenceCatalog.sentence("manual.receive.caFile", in: .cli)),
            CommandOption("--allow-plaintext", nil,
                sentenceCatalog.sentence("manual.receive.allowPlaintext", in: .cli)),
            CommandOption("--no-validation", nil,
                sentenceCatalog.sentence("manual.receive.noValidation", in: .cli)),
            CommandOption("--relay", "HOST:PORT",
                sentenceCatalog.sentence("manual.receive.relay", in: .cli)),
            .authService,
            .noLocalAuth(sentenceCatalog.sentence("manual.option.noLocalAuth.receive", in: .cli)),
        ],
        notes: [
            sentenceCatalog.sentence("manual.receive.note.1", in: .cli),
            scanNote,
            noPasswordNote,
            sentenceCatalog.sentence("manual.receive.note.4", in: .cli),
        ],
        refused: [
            "--yes": sentenceCatalog.sentence("manual.receive.refused.yes", in: .cli),
            "--replace": sentenceCatalog.sentence("manual.receive.refused.replace", in: .cli),
        ],
        positionals: 0...1, positionalName: sentenceCatalog.sentence("manual.positional.stdin", in: .cli))
}
