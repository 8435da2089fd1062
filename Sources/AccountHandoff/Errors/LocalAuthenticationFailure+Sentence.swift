/// `localizedDescription` reports ``LocalAuthenticationFailure/sentence(in:)`` in the process's language.
extension LocalAuthenticationFailure: TranslatedSentence {}
