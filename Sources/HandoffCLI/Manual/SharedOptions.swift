/// Options several commands share, worded once.
extension CommandOption {
    package static let ecc = CommandOption("--ecc", "LEVEL", sentenceCatalog.sentence("manual.option.ecc", in: .cli))
    package static let qrStyle = CommandOption("--qr-style", "S",
        sentenceCatalog.sentence("manual.option.qrStyle", in: .cli))
    static let codeFile = CommandOption("--code-file", "FILE", sentenceCatalog.sentence("manual.option.codeFile", in: .cli))
    /// `--store DIR`, with the sentence of the command that uses it.
    static func store(_ help: String) -> CommandOption {
        CommandOption("--store", "DIR", help)
    }
    static let authService = CommandOption("--auth-service", "NAME",
        sentenceCatalog.sentence("manual.option.authService", in: .cli))
    /// `--no-local-auth`, with the sentence of the command that takes it.
    static func noLocalAuth(_ help: String) -> CommandOption {
        CommandOption("--no-local-auth", nil, help)
    }
}

extension CommandManual {
    /// What `send` and `receive` say about an account the gate cannot pass.
    static let noPasswordNote = sentenceCatalog.sentence("manual.noPasswordNote", in: .cli)
}
