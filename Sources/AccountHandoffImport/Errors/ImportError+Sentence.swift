import AccountHandoff

/// `localizedDescription` reports ``ImportError/sentence(in:)`` in the process's language.
extension ImportError: TranslatedSentence {}
