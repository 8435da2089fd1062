import AccountHandoff

/// Why an import could not go ahead. Secret-free.
public enum ImportError: Error, Hashable, Sendable, CustomStringConvertible {
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
    public var description: String {
        switch self {
        case .importInProgress(let linkID):
            "An import of the account \(linkID) is already running in this app; wait for it to finish, then check the accounts before trying again."
        case .accountChangedMeanwhile:
            "The stored accounts changed while this import was running, so nothing was changed; check the accounts, then start a new transfer if the account is still missing."
        case .choiceRequired:
            "The offered account conflicts with a stored one and no choice was made; choose to replace it, keep both or cancel, then accept again."
        case .choiceNotAllowed(let choice):
            "The choice to \(Self.words(choice)) is not one this conflict allows; choose one of the choices the conflict lists."
        case .alreadyFinished:
            "This import was already completed or cancelled; start a new transfer to import the account again."
        case .deliveredAccountDiffersFromOffer:
            "The sending device delivered another account than the one offered and confirmed, so it was not imported; start a new transfer."
        case .commitUncertain(let error):
            "Whether the import was saved is unknown, because the commit failed and the store could not be read back; restart the app so it can finish or undo the import, then check the accounts. The store reported: \(error)"
        case .metadataStore(let error): error.description
        case .credentialStore(let error): error.description
        case .validatorNotReady(let failure): failure.description
        }
    }

    private static func words(_ choice: ImportChoice) -> String {
        switch choice {
        case .replace(let id): "replace the stored account \(id)"
        case .keepBoth: "keep both accounts"
        case .cancel: "cancel"
        }
    }
}
