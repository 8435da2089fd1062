import AccountHandoff

/// `localizedDescription` reports ``CredentialStoreError/sentence(in:)`` in the process's language.
extension CredentialStoreError: TranslatedSentence {}
