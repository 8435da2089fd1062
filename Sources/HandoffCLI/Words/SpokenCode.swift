import AccountHandoff

/// The spoken form of the codes the CLI shows (Spec 4.4, 12.4), with the digit words of its
/// catalog, so a German terminal says "vier acht zwei" where an English one says "four eight two".
enum SpokenCode {
    static let formatter = ShortCodeFormatter(digitWords: [
        sentenceCatalog.sentence("digit.0", in: .cli), sentenceCatalog.sentence("digit.1", in: .cli),
        sentenceCatalog.sentence("digit.2", in: .cli), sentenceCatalog.sentence("digit.3", in: .cli),
        sentenceCatalog.sentence("digit.4", in: .cli), sentenceCatalog.sentence("digit.5", in: .cli),
        sentenceCatalog.sentence("digit.6", in: .cli), sentenceCatalog.sentence("digit.7", in: .cli),
        sentenceCatalog.sentence("digit.8", in: .cli), sentenceCatalog.sentence("digit.9", in: .cli),
    ])
}
