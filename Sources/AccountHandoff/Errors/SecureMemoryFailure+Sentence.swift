/// `localizedDescription` reports the sentence of ``SecureMemoryFailure/description``.
extension SecureMemoryFailure: LocalizedErrorSentence {}
