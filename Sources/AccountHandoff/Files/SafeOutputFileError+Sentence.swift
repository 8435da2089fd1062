
/// `localizedDescription` reports the sentence of ``SafeOutputFileError/description``.
extension SafeOutputFileError: LocalizedErrorSentence {}
