/// `localizedDescription` reports ``SecureMemoryFailure/sentence(in:)`` in the process's language.
extension SecureMemoryFailure: TranslatedSentence {}
