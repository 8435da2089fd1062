import AccountHandoff

/// `localizedDescription` reports the sentence of CredentialStoreError/description.
extension CredentialStoreError: LocalizedErrorSentence {}
