import AccountHandoff

/// `localizedDescription` reports the sentence of KeychainPolicyViolation/description.
extension KeychainPolicyViolation: LocalizedErrorSentence {}
