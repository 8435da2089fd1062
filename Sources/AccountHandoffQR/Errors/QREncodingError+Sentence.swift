import AccountHandoff

/// `localizedDescription` reports ``QREncodingError/sentence(in:)`` in the process's language.
extension QREncodingError: TranslatedSentence {}
