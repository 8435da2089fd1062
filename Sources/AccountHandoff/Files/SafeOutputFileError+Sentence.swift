/// `localizedDescription` reports ``SafeOutputFileError/sentence(in:)`` in the process's language.
extension SafeOutputFileError: TranslatedSentence {}
