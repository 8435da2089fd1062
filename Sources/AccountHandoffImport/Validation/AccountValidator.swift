import AccountHandoff

/// Checks a delivered account against its mail server before the import commits.
public protocol AccountValidator: Sendable {
    /// Checks, before any password travels, that the validator itself can run: its
    /// configuration is usable (for example a certificate authority file that exists and holds
    /// certificates). Called when the import is prepared and again when the person accepts.
    ///
    /// - Throws: ``ValidationFailure/validatorNotReady(reason:)`` with a sentence.
    func checkReady() throws(ValidationFailure)

    /// Logs in with `credential` and logs out again.
    ///
    /// The credential stays in guarded memory; implementations hand it to their protocol
    /// library with as few copies as it allows and never log it.
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult
}

extension AccountValidator {
    /// A validator with nothing to check beforehand is always ready.
    public func checkReady() throws(ValidationFailure) {}
}

/// What validation found.
public enum ValidationResult: Hashable, Sendable {
    /// The server accepted the credential.
    case valid
    /// Nothing was checked: the validator does not contact a server (the person chose to
    /// store the account unchecked). The import goes on and says so.
    case notChecked
    /// Validation failed for this reason.
    case failed(ValidationFailure)
}
