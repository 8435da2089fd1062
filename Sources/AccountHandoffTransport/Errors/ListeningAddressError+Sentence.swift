import AccountHandoff

/// `localizedDescription` reports the sentence of ListeningAddressError/description.
extension ListeningAddressError: LocalizedErrorSentence {}
