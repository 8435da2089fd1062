extension RegistryStorageFailure: TranslatedSentence {
    /// Whole sentences: why this device cannot record its used transfers, and what to do.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        sentenceCatalog.sentence("registry.failure", .text(summary(in: language)), .text(nextStep(in: language)), in: language)
    }

    /// What the person can do about it.
    private func nextStep(in language: HandoffLanguage) -> String {
        switch self {
        case .unreadable, .unwritable:
            sentenceCatalog.sentence("registry.nextStep.permissions", in: language)
        case .corrupt:
            sentenceCatalog.sentence("registry.nextStep.corrupt", in: language)
        case .notARegularFile:
            sentenceCatalog.sentence("registry.nextStep.notARegularFile", in: language)
        }
    }
}
