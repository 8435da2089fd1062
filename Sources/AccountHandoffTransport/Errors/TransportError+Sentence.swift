import AccountHandoff

/// `localizedDescription` reports the sentence of TransportError/description.
extension TransportError: LocalizedErrorSentence {}
