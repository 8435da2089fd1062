import AccountHandoff

/// `localizedDescription` reports ``KeychainPolicyViolation/sentence(in:)`` in the process's language.
extension KeychainPolicyViolation: TranslatedSentence {}
