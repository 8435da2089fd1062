/// `localizedDescription` reports the sentences of ``LocalAuthenticationFailure/description``.
extension LocalAuthenticationFailure: LocalizedErrorSentence {}
