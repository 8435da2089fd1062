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

    private static func reason(_ failure: ValidationFailure) -> String {
        if case .validatorNotReady(let reason) = failure { return reason }
        return failure.identifier
    }

    /// A secret-free sentence for logs and error details.
    public var description: String {
        switch self {
        case .importInProgress(let linkID): "An import of account \(linkID) is already running."
        case .accountChangedMeanwhile: "The stored accounts changed while this import was running."
        case .choiceRequired: "The offered account conflicts with a stored one and no choice was made."
        case .choiceNotAllowed(let choice): "The choice \(choice) is not allowed for this conflict."
        case .alreadyFinished: "This import was already completed or cancelled."
        case .deliveredAccountDiffersFromOffer: "The delivered account differs from the offered one."
        case .commitUncertain(let error): "Whether the import was saved is unknown: \(error)"
        case .metadataStore(let error): error.description
        case .credentialStore(let error): error.description
        case .validatorNotReady(let failure): failure.identifier == "validatorNotReady" ? Self.reason(failure) : failure.identifier
        }
    }
}
