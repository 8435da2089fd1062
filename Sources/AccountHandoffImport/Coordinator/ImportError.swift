import AccountHandoff

/// Why an import could not go ahead. Secret-free.
public enum ImportError: Error, Hashable, Sendable, TranslatedSentence {
    /// Another import of the same account link ID is running in this process.
    case importInProgress(AccountLinkID)
    /// The stored accounts changed between the person's choice and the commit, for example
    /// because a concurrent import of the same account won. Nothing was changed.
    case accountChangedMeanwhile
    /// The offered account conflicts with stored ones and no choice was made.
    case choiceRequired
    /// The choice is not one of the conflict's allowed choices.
    case choiceNotAllowed(ImportChoice)
    /// The prepared import was already completed or cancelled.
    case alreadyFinished
    /// The delivered account is not the one that was offered and decided on.
    case deliveredAccountDiffersFromOffer
    /// The commit reported a failure and the store could not be read to learn whether it
    /// happened; the staged credential is kept for recovery, which settles it on the next start.
    case commitUncertain(AccountStoreError)
    /// The metadata store failed.
    case metadataStore(AccountStoreError)
    /// The credential store failed.
    case credentialStore(CredentialStoreError)
    /// The account cannot be checked with its mail server as configured (Spec 6.7: found
    /// before the password travels).
    case validatorNotReady(ValidationFailure)

    /// A secret-free sentence for logs and error details.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String {
        switch self {
        case .importInProgress(let linkID):
            sentenceCatalog.sentence("importError.importInProgress", .text(linkID.description), in: language)
        case .accountChangedMeanwhile:
            sentenceCatalog.sentence("importError.accountChangedMeanwhile", in: language)
        case .choiceRequired:
            sentenceCatalog.sentence("importError.choiceRequired", in: language)
        case .choiceNotAllowed(let choice):
            sentenceCatalog.sentence("importError.choiceNotAllowed", .text(Self.words(choice, in: language)), in: language)
        case .alreadyFinished:
            sentenceCatalog.sentence("importError.alreadyFinished", in: language)
        case .deliveredAccountDiffersFromOffer:
            sentenceCatalog.sentence("importError.deliveredAccountDiffersFromOffer", in: language)
        case .commitUncertain(let error):
            sentenceCatalog.sentence("importError.commitUncertain", .text(error.sentence(in: language)), in: language)
        case .metadataStore(let error): error.sentence(in: language)
        case .credentialStore(let error): error.sentence(in: language)
        case .validatorNotReady(let failure): failure.sentence(in: language)
        }
    }

    private static func words(_ choice: ImportChoice, in language: HandoffLanguage) -> String {
        switch choice {
        case .replace(let id): sentenceCatalog.sentence("importError.choice.replace", .text(id.description), in: language)
        case .keepBoth: sentenceCatalog.sentence("importError.choice.keepBoth", in: language)
        case .cancel: sentenceCatalog.sentence("importError.choice.cancel", in: language)
        }
    }
}
