import AccountHandoff

/// `localizedDescription` reports ``AccountStoreError/sentence(in:)`` in the process's language.
extension AccountStoreError: TranslatedSentence {}
