import AccountHandoff

/// `localizedDescription` reports the sentence of AccountStoreError/description.
extension AccountStoreError: LocalizedErrorSentence {}
