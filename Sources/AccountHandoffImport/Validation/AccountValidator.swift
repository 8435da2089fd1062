import AccountHandoff

/// Checks a delivered account against its mail server before the import commits.
public protocol AccountValidator: Sendable {
    /// Logs in with `credential` and logs out again.
    ///
    /// The credential stays in guarded memory; implementations hand it to their protocol
    /// library with as few copies as it allows and never log it.
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult
}

/// What validation found.
public enum ValidationResult: Hashable, Sendable {
    /// The server accepted the credential.
    case valid
    /// Validation failed for this reason.
    case failed(ValidationFailure)
}
