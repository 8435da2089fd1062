import AccountHandoff

/// `localizedDescription` reports the sentence of ImportError/description.
extension ImportError: LocalizedErrorSentence {}
